// Package handoff keeps the human handoffs: an agent hands a tab to the
// person (a login, 2FA, a CAPTCHA) until they press Finish or Cancel, or the
// deadline passes. A [Keeper] records each in the ledger, takes the
// secret-free snapshots before and after (through the browser commands of
// package browser), works out what changed and how the agent should resume,
// times handoffs out, adopts the ones a dead daemon left, and says which tab
// each running one holds, so the engine's tab gate can refuse the agent
// there. It knows nothing of tools: the engine's handoff tools call it.
package handoff
