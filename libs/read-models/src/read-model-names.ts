/** Read models rebuilt from Kafka by the projector; logical names (libs/mongo read-models.ts keeps their versions). */
export const READ_MODELS = {
  devices: 'devices',
  topics: 'topics',
  notifications: 'notifications',
  /** One document per delivery batch (see DeliveryLedgerDocument). */
  delivery_ledger: 'delivery_ledger',
  /** Per notification: failures by reason, outcomes and opens over time (see NotificationReportDocument); its counters, the project's per hour (outcome-counts.ts). */
  notification_reports: 'notification_reports',
} as const;

export type ReadModelName = keyof typeof READ_MODELS;
