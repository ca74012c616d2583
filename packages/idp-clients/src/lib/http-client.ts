import { SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api'
import axios, { type AxiosInstance, type AxiosRequestConfig, type AxiosResponse } from 'axios'
import {
  IdpConflictError,
  IdpError,
  IdpInvalidGrantError,
  IdpRateLimitedError,
  IdpRejectedError,
  IdpUnavailableError,
} from '../errors'
import { timeLeft } from './deadline'
import { retryDelay } from './retry-delay'
import { routeTemplate } from './route-template'

/** Retries of transient answers (408, 429, 5xx, network errors), as the vendors' SDKs do. */
export interface RetryOptions {
  /** Default 2 (Auth0's SDK). */
  maxRetries?: number
  /** Start of the exponential backoff with jitter; default 250 ms. */
  baseDelayMs?: number
  /** Longest wait, also for a server's `Retry-After`; asked for longer, the call gives up. Default 4000 ms. */
  maxDelayMs?: number
}

export interface HttpClientOptions {
  baseUrl: string
  /** Limit of one call; inside `runWithDeadline`, never beyond the deadline. */
  timeoutMs: number
  retry?: RetryOptions
  /** For tests: how to wait. */
  sleep?: (ms: number) => Promise<void>
}

export interface IdpRequest extends AxiosRequestConfig {
  /** What the call does, for error messages ("create user"). */
  what: string
}

const headersOf = (response: AxiosResponse) =>
  Object.fromEntries(Object.entries(response.headers).map(([k, v]) => [k, String(v)])) as Record<
    string,
    string
  >

const transient = (error: unknown) =>
  error instanceof IdpUnavailableError ||
  error instanceof IdpRateLimitedError ||
  (error instanceof IdpError && (error.statusCode === 408 || (error.statusCode ?? 0) >= 500))

/**
 * One place where HTTP becomes typed errors: network failures and time-outs are `IdpUnavailableError`,
 * 409 `IdpConflictError`, 429 `IdpRateLimitedError`, an `invalid_grant` answer `IdpInvalidGrantError`, any
 * other non-2xx `IdpRejectedError`; each carries status, body and headers. Transient failures (408, 429, 5xx,
 * network) are retried with the server's `Retry-After` / `x-ratelimit-reset` or backoff, within the deadline.
 * Each call is one OpenTelemetry client span (a no-op unless the process runs an SDK): method, route template,
 * the last status and how many retries it took; never the body, query, headers or ids.
 */
export function createHttpClient({
  baseUrl,
  timeoutMs,
  retry: { maxRetries = 2, baseDelayMs = 250, maxDelayMs = 4000 } = {},
  sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
}: HttpClientOptions) {
  const http: AxiosInstance = axios.create({
    baseURL: baseUrl,
    validateStatus: () => true,
    proxy: false,
  })

  async function once<T>({ what, ...config }: IdpRequest): Promise<AxiosResponse<T>> {
    const budget = Math.min(timeoutMs, timeLeft())
    if (budget <= 0) throw new IdpUnavailableError(`${what}: exchange deadline reached`)
    let response: AxiosResponse<T>
    try {
      response = await http.request<T>({ ...config, timeout: budget, signal: AbortSignal.timeout(budget) })
    } catch (cause) {
      // The axios error is not kept: its `config` holds the request body (passwords, client secrets), and
      // errors end up in logs. Its code and message say enough.
      const { code, message } = cause as { code?: string; message?: string }
      throw new IdpUnavailableError(
        `${what}: identity provider unreachable (${code ?? message ?? 'network error'})`,
      )
    }
    if (response.status < 300) return response
    throw errorOf(what, response)
  }

  async function withRetries<T>(config: IdpRequest, span: Span): Promise<AxiosResponse<T>> {
    for (let attempt = 0; ; attempt += 1) {
      span.setAttribute('pf.idp.retries', attempt)
      try {
        const response = await once<T>(config)
        span.setAttribute('http.response.status_code', response.status)
        return response
      } catch (error) {
        const status = (error as IdpError).statusCode
        if (status !== undefined) span.setAttribute('http.response.status_code', status)
        if (!transient(error) || attempt >= maxRetries) throw error
        const delay = retryDelay(attempt, (error as IdpError).headers, { baseDelayMs, maxDelayMs })
        // Asked to wait longer than we may, or than the deadline leaves: give up now, with the server's answer.
        if (delay === undefined || delay >= timeLeft()) throw error
        await sleep(delay)
      }
    }
  }

  return function request<T>(config: IdpRequest): Promise<AxiosResponse<T>> {
    const method = (config.method ?? 'GET').toUpperCase()
    const template = routeTemplate(config.url ?? '')
    const attributes = { 'http.request.method': method, 'url.template': template, 'pf.idp.call': config.what }
    // Asked for on each call, not once at load: the process may start its SDK after loading this module.
    const tracer = trace.getTracer('@pf/idp-clients')
    return tracer.startActiveSpan(
      `${method} ${template}`,
      { kind: SpanKind.CLIENT, attributes },
      async (span) => {
        try {
          return await withRetries<T>(config, span)
        } catch (error) {
          span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).name })
          throw error
        } finally {
          span.end()
        }
      },
    )
  }
}

export type IdpHttp = ReturnType<typeof createHttpClient>

/** The typed error of a non-2xx answer (see `createHttpClient`). */
function errorOf(what: string, response: AxiosResponse): IdpError {
  const details = { statusCode: response.status, body: response.data, headers: headersOf(response) }
  const error = (response.data as { error?: unknown } | undefined)?.error
  if (response.status === 409) return new IdpConflictError(`${what}: conflict (409)`, details)
  if (response.status === 429) return new IdpRateLimitedError(`${what}: rate limited (429)`, details)
  if (error === 'invalid_grant')
    return new IdpInvalidGrantError(`${what}: grant refused (${response.status} invalid_grant)`, details)
  // Gateways and overload mean "try later"; a plain 500 is the provider refusing (often its configuration).
  if (response.status === 502 || response.status === 503 || response.status === 504)
    return new IdpUnavailableError(`${what}: identity provider failed (${response.status})`, details)
  return new IdpRejectedError(
    `${what}: refused (${response.status}${typeof error === 'string' ? ` ${error}` : ''})`,
    details,
  )
}
