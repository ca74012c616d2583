// The baseline of the receiver benchmark: an Express 5 hello-world that reads the raw body of the same POST
// (as the receiver must) and answers JSON, without any other work.
const express = require('express')

const app = express()
app.post('/webhooks/pf', express.raw({ type: () => true, limit: '1mb' }), (_req, res) =>
  res.json({ received: true }),
)
const server = app.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ msg: 'listening', url: `http://127.0.0.1:${server.address().port}` }))
})
process.on('SIGTERM', () => server.close(() => process.exit(0)))
