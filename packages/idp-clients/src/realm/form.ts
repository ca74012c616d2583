/** Keycloak's token and logout endpoints take form bodies (OAuth 2.0, RFC 6749 section 4.3.2). */
export const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' }
export const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString()
