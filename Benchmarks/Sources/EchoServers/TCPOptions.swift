// IPPROTO_TCP and TCP_NODELAY (their Swift names are ambiguous next to the library's C modules).
let tcpLevel: Int32 = 6
let tcpNoDelay: Int32 = 1
