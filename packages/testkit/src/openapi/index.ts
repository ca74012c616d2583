export { createResponseValidator } from './create-response-validator'
