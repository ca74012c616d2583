import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { collectedSpansOf } from './collected-span'
import { decodeOtlpProtobuf } from './decode-otlp-protobuf'
import { MAX_EXPORT_BYTES, type OnExport, type OtlpServer } from './otlp-protocol'

// An ExportTraceServiceResponse with no partial_success: zero bytes in protobuf, `{}`-like in JSON.
const EMPTY_PROTOBUF_RESPONSE = Buffer.alloc(0)

function answer(response: ServerResponse, status: number, type: string, body: Buffer | string) {
  response.writeHead(status, { 'content-type': type }).end(body)
}

const answerJson = (response: ServerResponse, status: number, body: object) =>
  answer(response, status, 'application/json', JSON.stringify(body))

/**
 * Serves OTLP/HTTP at `POST /v1/traces` on a free port of 127.0.0.1: `http/json` (`application/json`) and
 * `http/protobuf` (`application/x-protobuf`), each answered in its own encoding as the OTLP specification asks.
 * Another content type is 415, another path 404, an undecodable or oversized body 400.
 */
export async function startOtlpHttpServer(onExport: OnExport): Promise<OtlpServer> {
  const server = createServer((request, response) => {
    if (request.method !== 'POST' || request.url?.split('?')[0] !== '/v1/traces')
      return answerJson(response, 404, {})
    const type = String(request.headers['content-type'])
    const protobuf = type.startsWith('application/x-protobuf')
    if (!protobuf && !type.startsWith('application/json'))
      return answerJson(response, 415, { message: 'this collector accepts http/json and http/protobuf' })
    const chunks: Buffer[] = []
    let size = 0
    request.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size <= MAX_EXPORT_BYTES) chunks.push(chunk)
    })
    request.on('end', () => {
      if (size > MAX_EXPORT_BYTES) return answerJson(response, 400, { message: 'export request too large' })
      const body = Buffer.concat(chunks)
      try {
        if (protobuf) onExport(decodeOtlpProtobuf(body), 'http/protobuf')
        else onExport(collectedSpansOf(JSON.parse(body.toString('utf8'))), 'http/json')
      } catch {
        return answerJson(response, 400, { message: protobuf ? 'not OTLP protobuf' : 'not OTLP/JSON' })
      }
      if (protobuf) answer(response, 200, 'application/x-protobuf', EMPTY_PROTOBUF_RESPONSE)
      else answerJson(response, 200, { partialSuccess: {} })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
