//
//  LineClient.h
//  A client of the LINE protocol, written against the run-loop AsyncSocket (CocoaAsyncSocket 7.4).
//
//  This file belongs to the AsyncSocketKit migration guide: it is the "before" of the worked
//  example, it is never compiled here, and `asyncsocket migrate-scan` is tested on it.
//

#import <Foundation/Foundation.h>
#import "AsyncSocket.h"

@class LineClient;

@protocol LineClientObserver <NSObject>
// One line per thing the client did, e.g. @"sent PING" or @"reply PONG".
- (void)lineClient:(LineClient *)client didLog:(NSString *)event;
@end

@interface LineClient : NSObject <AsyncSocketDelegate>
{
	AsyncSocket *socket;
	NSMutableArray *pendingCommands;
	NSTimeInterval replyTimeout;
	BOOL timeoutExtended;
	id <LineClientObserver> observer;
}

// Commands to send, one per line, in order; for example PING, GET motd, QUIT.
- (id)initWithCommands:(NSArray *)commands observer:(id <LineClientObserver>)anObserver;

// Connects; everything else happens in the AsyncSocket callbacks on the current run loop.
- (BOOL)startWithHost:(NSString *)host port:(UInt16)port error:(NSError **)errPtr;

- (void)stop;

@end
