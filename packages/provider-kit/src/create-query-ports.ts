import type { S3Client } from '@aws-sdk/client-s3'
import type { AxiosInstance } from 'axios'
import type { Logger } from '@pf/service-kit'
import type { QueryPorts } from './query-ports'
import { deliverByWebhook } from './deliver-by-webhook'
import { deliverToS3 } from './deliver-to-s3'
import { postCallback } from './post-callback'

export interface QueryPortsOptions {
  s3: S3Client
  /** The outbound client (`createOutboundClient`): time-outs, no redirects, no private targets. */
  http: AxiosInstance
  defaultBucket: string
  outbound: { allowPrivate: boolean; timeoutMs: number; allowedPorts?: readonly number[] }
  logger: Logger
}

/** The query flow's ports over S3 (object delivery) and HTTP (webhook delivery, callbacks). */
export function createQueryPorts({
  s3,
  http,
  defaultBucket,
  outbound,
  logger,
}: QueryPortsOptions): QueryPorts {
  return {
    deliver(mechanism, envelope, records, signal) {
      switch (mechanism) {
        case 'pf_s3_sync':
          return deliverToS3(s3, envelope.delivery, envelope.queryId, defaultBucket, records, signal)
        case 'webhook':
          return deliverByWebhook(
            http,
            envelope.delivery,
            records,
            { ...outbound, idleTimeoutMs: outbound.timeoutMs },
            signal,
          )
      }
    },
    sendCallback: (envelope, payload) =>
      postCallback(http, envelope, payload, { logger, timeoutMs: outbound.timeoutMs }),
  }
}
