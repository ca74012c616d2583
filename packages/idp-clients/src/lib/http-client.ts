import axios, { type AxiosInstance, type AxiosRequestConfig, type AxiosResponse } from 'axios'
import {
  IdpConflictError,
  IdpInvalidGrantError,
  IdpRateLimitedError,
  IdpRejectedError,
  IdpUnavailableError,
} from '../errors'

export interface HttpClientOptions {
  baseUrl: string
  timeoutMs: number
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

/**
 * One place where HTTP becomes typed errors: network failures and time-outs are `IdpUnavailableError`,
 * 409 `IdpConflictError`, 429 `IdpRateLimitedError`, an `invalid_grant` answer `IdpInvalidGrantError`, any
 * other non-2xx `IdpRejectedError`; each carries status, body and headers.
 */
export function createHttpClient({ baseUrl, timeoutMs }: HttpClientOptions) {
  const http: AxiosInstance = axios.create({
    baseURL: baseUrl,
    timeout: timeoutMs,
    validateStatus: () => true,
    proxy: false,
  })

  return async function request<T>({ what, ...config }: IdpRequest): Promise<AxiosResponse<T>> {
    let response: AxiosResponse<T>
    try {
      response = await http.request<T>({ ...config, signal: AbortSignal.timeout(timeoutMs) })
    } catch (cause) {
      // The axios error is not kept: its `config` holds the request body (passwords, client secrets), and
      // errors end up in logs. Its code and message say enough.
      const { code, message } = cause as { code?: string; message?: string }
      throw new IdpUnavailableError(
        `${what}: identity provider unreachable (${code ?? message ?? 'network error'})`,
      )
    }
    if (response.status < 300) return response
    const details = { statusCode: response.status, body: response.data, headers: headersOf(response) }
    const error = (response.data as { error?: unknown } | undefined)?.error
    if (response.status === 409) throw new IdpConflictError(`${what}: conflict (409)`, details)
    if (response.status === 429) throw new IdpRateLimitedError(`${what}: rate limited (429)`, details)
    if (error === 'invalid_grant')
      throw new IdpInvalidGrantError(`${what}: grant refused (${response.status} invalid_grant)`, details)
    // Gateways and overload mean "try later"; a plain 500 is the provider refusing (often its configuration).
    if (response.status === 502 || response.status === 503 || response.status === 504) {
      throw new IdpUnavailableError(`${what}: identity provider failed (${response.status})`, details)
    }
    throw new IdpRejectedError(
      `${what}: refused (${response.status}${typeof error === 'string' ? ` ${error}` : ''})`,
      details,
    )
  }
}

export type IdpHttp = ReturnType<typeof createHttpClient>
