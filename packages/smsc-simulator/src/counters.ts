/** The simulator's event counters (SmscStats without the live figures), all zero. */
export function newCounters() {
  return {
    connections: 0,
    binds: 0,
    bindFailures: 0,
    unbinds: 0,
    enquireLinks: 0,
    submitReceived: 0,
    submitted: 0,
    rejected: 0,
    throttled: 0,
    tpsLimited: 0,
    queueFull: 0,
    receiptsSent: 0,
    receiptsAcked: 0,
    receiptsNacked: 0,
    moSent: 0,
    moPartsSent: 0,
    connectionsDropped: 0,
    ignoredPdus: 0,
    sessionsReplaced: 0,
    restarts: 0,
    receiptsLost: 0,
    unansweredForgotten: 0,
  };
}

export type Counters = ReturnType<typeof newCounters>;
