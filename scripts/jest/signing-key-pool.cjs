// Each emulator and marketplace issuer signs with an RSA 2048 key of its own, and making one costs about a
// quarter of a CPU second: hundreds per suite. Tests take them from these, made ahead (signing-keys.json, test
// keys only, never shipped): each at most once per test file, so the keys a file holds differ as fresh ones
// would; past the last, SigningKey makes fresh ones again. Processes a test starts get none (they make theirs).
const { createPrivateKey, createPublicKey } = require('node:crypto')
const pems = require('./signing-keys.json')

let next = 0
globalThis[Symbol.for('pf.testkit.signingKeyPairs')] = () => {
  if (next >= pems.length) return undefined
  const privateKey = createPrivateKey(pems[next])
  next += 1
  return { privateKey, publicKey: createPublicKey(privateKey) }
}
