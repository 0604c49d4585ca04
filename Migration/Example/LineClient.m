//
//  LineClient.m
//  A client of the LINE protocol, written against the run-loop AsyncSocket (CocoaAsyncSocket 7.4).
//
//  The protocol: the server greets with one line; the client sends one command per line and gets one
//  CRLF-terminated reply line per command, except that "PAYLOAD <n>" announces exactly n bytes of
//  payload after it (which may hold CR LF themselves). After "QUIT" the server says "BYE" and closes.
//
//  This file belongs to the AsyncSocketKit migration guide: it is the "before" of the worked
//  example, it is never compiled here, and `asyncsocket migrate-scan` is tested on it.
//

#import "LineClient.h"

// What each read is for; the tags come back in the delegate callbacks.
enum {
	TAG_WELCOME = 1,
	TAG_REPLY = 2,
	TAG_PAYLOAD = 3,
	TAG_COMMAND = 10
};

#define CONNECT_TIMEOUT 10.0
#define REPLY_TIMEOUT 5.0
#define TIMEOUT_EXTENSION 5.0

@implementation LineClient

- (id)initWithCommands:(NSArray *)commands observer:(id <LineClientObserver>)anObserver
{
	if ((self = [super init]))
	{
		socket = [[AsyncSocket alloc] initWithDelegate:self];
		// On by default since 5.0.1; old code kept asking for it.
		[socket enablePreBuffering];
		pendingCommands = [commands mutableCopy];
		replyTimeout = REPLY_TIMEOUT;
		observer = anObserver;
	}
	return self;
}

- (BOOL)startWithHost:(NSString *)host port:(UInt16)port error:(NSError **)errPtr
{
	timeoutExtended = NO;
	return [socket connectToHost:host onPort:port withTimeout:CONNECT_TIMEOUT error:errPtr];
}

- (void)stop
{
	[socket disconnect];
}

- (void)log:(NSString *)event
{
	[observer lineClient:self didLog:event];
}

- (void)readLineWithTag:(long)tag
{
	[socket readDataToData:[AsyncSocket CRLFData]
	           withTimeout:replyTimeout
	                   tag:tag];
}

- (void)sendNextCommand
{
	if ([pendingCommands count] == 0)
	{
		// Nothing left to say: the server closes after QUIT (see onSocket:willDisconnectWithError:).
		return;
	}
	NSString *command = [pendingCommands objectAtIndex:0];
	[pendingCommands removeObjectAtIndex:0];
	[self log:[NSString stringWithFormat:@"sent %@", command]];

	NSData *line = [[command stringByAppendingString:@"\r\n"] dataUsingEncoding:NSUTF8StringEncoding];
	[socket writeData:line withTimeout:replyTimeout tag:TAG_COMMAND];
	[self readLineWithTag:TAG_REPLY];
}

#pragma mark AsyncSocket delegate

- (void)onSocket:(AsyncSocket *)sock didConnectToHost:(NSString *)host port:(UInt16)port
{
	[self log:[NSString stringWithFormat:@"connected %@ %hu", host, port]];
	[self readLineWithTag:TAG_WELCOME];
}

- (void)onSocket:(AsyncSocket *)sock didReadData:(NSData *)data withTag:(long)tag
{
	if (tag == TAG_PAYLOAD)
	{
		[self log:[NSString stringWithFormat:@"payload %lu bytes", (unsigned long)[data length]]];
		[self sendNextCommand];
		return;
	}

	// Every line ends with CR LF (the separator is part of the data).
	NSString *line = [[NSString alloc] initWithBytes:[data bytes]
	                                          length:[data length] - 2
	                                        encoding:NSUTF8StringEncoding];
	if (tag == TAG_WELCOME)
	{
		[self log:[NSString stringWithFormat:@"welcome %@", line]];
		[self sendNextCommand];
	}
	else if ([line hasPrefix:@"PAYLOAD "])
	{
		[self log:[NSString stringWithFormat:@"reply %@", line]];
		NSUInteger length = (NSUInteger)[[line substringFromIndex:8] integerValue];
		if (length == 0)
		{
			// readDataToLength:0 would be ignored, and we would wait forever.
			[self log:@"payload 0 bytes"];
			[self sendNextCommand];
			return;
		}
		[sock readDataToLength:length withTimeout:replyTimeout tag:TAG_PAYLOAD];
	}
	else
	{
		[self log:[NSString stringWithFormat:@"reply %@", line]];
		[self sendNextCommand];
	}
}

/**
 * A slow server gets one second chance per connection: the first time a read runs out of time it is
 * extended once; the second time it times out (AsyncSocketReadTimeoutError).
**/
- (NSTimeInterval)onSocket:(AsyncSocket *)sock
  shouldTimeoutReadWithTag:(long)tag
                   elapsed:(NSTimeInterval)elapsed
                 bytesDone:(NSUInteger)length
{
	if (timeoutExtended)
	{
		return 0.0;
	}
	timeoutExtended = YES;
	[self log:[NSString stringWithFormat:@"extended read %ld after %.1f s", tag, elapsed]];
	return TIMEOUT_EXTENSION;
}

- (void)onSocket:(AsyncSocket *)sock willDisconnectWithError:(NSError *)err
{
	// Only here does unreadData answer: what the server sent that no read took.
	NSData *unread = [sock unreadData];
	NSString *leftover = [[NSString alloc] initWithData:unread encoding:NSUTF8StringEncoding];

	if (err == nil)
	{
		[self log:[NSString stringWithFormat:@"closed by server, unread \"%@\"", leftover]];
	}
	else if ([[err domain] isEqualToString:AsyncSocketErrorDomain] && [err code] == AsyncSocketReadTimeoutError)
	{
		[self log:[NSString stringWithFormat:@"closed on read timeout, unread \"%@\"", leftover]];
	}
	else
	{
		[self log:[NSString stringWithFormat:@"closed on error %@ %ld, unread \"%@\"", [err domain],
		                                     (long)[err code], leftover]];
	}
}

- (void)onSocketDidDisconnect:(AsyncSocket *)sock
{
	[self log:@"disconnected"];
}

- (void)dealloc
{
	[socket setDelegate:nil];
	[socket disconnect];
}

@end
