// Package protocol is the contract between the processes of OpenChrome: the
// frames agents, the broker, the daemon and the extension exchange, the shared
// error codes, and the native-messaging codec (a 4-byte little-endian length,
// then UTF-8 JSON).
//
// The extension mirrors these types in extension/lib; both sides decode the
// golden vectors in testdata/, so a change to the wire starts there.
//
// protocol imports only the standard library.
package protocol
