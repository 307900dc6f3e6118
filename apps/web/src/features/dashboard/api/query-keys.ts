/** Under ['dashboard']: the hub invalidates that prefix on UserSmsDeliveryUpdated. */
export const dashboardKeys = {
  all: ['dashboard'] as const,
  summary: ['dashboard', 'summary'] as const,
  recent: ['dashboard', 'recent'] as const,
};

/** While the hub is not connected, the HTTP figures are refetched this often. */
export const FALLBACK_POLL_MS = 15_000;
