/** The sender-ids feature's public api: what other features may use (eslint blocks deeper imports). */
export { getSenderIds, senderIdsQueryKey, useSenderIds } from './api/get-sender-ids';
export { usePlatformSender } from './api/get-sender-id-approval';
