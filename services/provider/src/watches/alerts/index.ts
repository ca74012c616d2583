export { ALERT_MIGRATIONS } from './alert-migrations'
export { DEFAULT_ALERT_DELIVERY } from './alert-delivery-settings'
export type { AlertDeliverySettings, AlertRetryPolicy } from './alert-delivery-settings'
export { serializeAlertBatch } from './alert-batch-payload'
export type { AlertBatchPayload, DeliveredAlert } from './alert-batch-payload'
export { createAlertDeliverer } from './create-alert-deliverer'
export type { AlertDeliverer, AlertDelivererOptions } from './create-alert-deliverer'
export { formAlertBatches } from './form-alert-batches'
export { deliverNextBatch } from './deliver-next-batch'
export { postAlertBatch } from './post-alert-batch'
export { listWatchAlerts } from './list-watch-alerts'
export type { AlertPage, ListedAlert, ListedAlertStatus } from './list-watch-alerts'
export { requeueFailedBatches } from './requeue-failed-batches'
export { retryDelayMs } from './retry-delay'
export {
  DEFAULT_ALERT_PAGE,
  MAX_ALERT_PAGE,
  NO_WATCHES_DATABASE,
  watchAlertRoutes,
} from './watch-alert-routes'
export type { WatchAlertRoutesOptions } from './watch-alert-routes'
