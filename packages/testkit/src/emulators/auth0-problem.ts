import type { Response } from 'express'

/** The Management API's error body: `{statusCode, error, message, errorCode?}`. */
export const problem = (res: Response, status: number, error: string, message: string, errorCode?: string) =>
  void res.status(status).json({ statusCode: status, error, message, ...(errorCode ? { errorCode } : {}) })
