#pragma once

class QObject;

// SIGTERM and SIGINT end the event loop, so a command stops the normal way (threads joined, servers
// closed, temporary files removed). The handler only writes a byte to a socket pair, all a signal handler
// may safely do; a QSocketNotifier owned by `context` reads it and quits the loop. False when the socket
// pair or the handlers cannot be installed.
bool quitOnTerminationSignals(QObject *context);
