// Package redact keeps secrets out of everything that leaves the engine:
// task records, logs, evidence, recordings and tool output. ARCHITECTURE §6:
// no cookie values, storage values, typed text, passwords, request bodies or
// auth headers are ever written. This package is the one place that rule is
// implemented; callers redact at the point where data leaves.
//
//	summary := redact.Args(rawArgs, ledger.MaxArgsSummary) // task args_summary
//	logURL := redact.URL(pageURL)                          // logs, evidence
//	line := redact.Text(consoleMessage)                    // free text
//
//	var known redact.Redactor                 // one per daemon, shared
//	known.Add(typedPassword)                  // when a password field is filled
//	log := slog.New(redact.NewHandler(slog.NewJSONHandler(f, nil), &known))
//
// Everything it finds becomes [Mask]. It finds secrets three ways:
//
//   - by name: a JSON key, slog attribute, header, URL parameter or the key of
//     a key=value pair whose name says it is a secret (password, token,
//     secret, api_key, auth, cookie, session, credential, otp, pin, cvv,
//     ssn, and names ending in them: userPassword, X-Auth-Token);
//   - by shape: bearer credentials, JWTs, vendor API keys, long hex and
//     random-looking base64, card numbers that pass Luhn, URL userinfo;
//   - by value: the exact secrets a [Redactor] has been told.
//
// # False positives and negatives
//
// Shapes are guesses, tuned to leave prose and code readable: a key name in
// prose is not a pair ("the token bucket", "passwordless login"), short hex
// (git short hashes, #ffcc00) and camelCase identifiers survive, card
// numbers must start with 2-6 (so 13-digit millisecond timestamps pass). The
// price is paid on both sides. Over-masked: full 40-digit commit hashes and
// other hex ids of 32+ digits, UUIDs written without dashes, long random ids
// that look like base64, a sentence such as "Password: must be 8 characters"
// (whose next word is taken for the value), and code like token = getToken().
// Missed: secrets with no telling shape or name (a password in prose, a key
// under a field called "value"). The [Redactor]'s exact secrets close the
// second gap where the engine knows the secret, which is why typed text goes
// through one.
package redact
