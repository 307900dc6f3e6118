/** Rate plans, messages, campaigns and delivery receipts (issue #4). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface MessagingTables {}
