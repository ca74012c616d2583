import { once } from 'node:events'
import { createServer, type Server } from 'node:net'
import { startAuth0Emulator, startKeycloakEmulator } from '../src/emulators'
import { startMarketplaceIssuer } from '../src/platform'
import { startS3Server } from '../src/s3'

// The sandbox names a busy port and its holder from the listen error: each in-process server must return it
// (a rejection with code and port), not leave an 'error' event that ends the process with a stack trace.
let taken: Server
let port: number
beforeAll(async () => {
  taken = createServer().listen(0, '127.0.0.1')
  await once(taken, 'listening')
  port = (taken.address() as { port: number }).port
})
afterAll(() => taken.close())

describe('a server of the testkit on a port already taken', () => {
  it.each([
    ['the S3 server (s3rver)', () => startS3Server({ port })],
    ['the Keycloak emulator', () => startKeycloakEmulator({ port })],
    ['the Auth0 emulator', () => startAuth0Emulator({ port })],
    ['the marketplace issuer', () => startMarketplaceIssuer({ port })],
  ])('%s rejects with EADDRINUSE and the port, and this process goes on', async (_name, start) => {
    await expect(start()).rejects.toMatchObject({ code: 'EADDRINUSE', port })
  })
})
