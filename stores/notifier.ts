/** The notifier port: tells the outside world that a task reached a terminal state. */
export interface ResultNotification {
  event: 'ingest.succeeded' | 'ingest.failed' | 'plan.awaiting_confirmation';
  /** The outbox row id: receivers use it to drop a redelivery. */
  deliveryId: string;
  documentId: string;
  taskId: string;
  payload: Record<string, unknown>;
}

export interface Notifier {
  deliver(notification: ResultNotification): Promise<void>;
}

/** The embedded default: a structured log line is the notification. */
export function createLogNotifier(log: (message: string, attrs: Record<string, unknown>) => void): Notifier {
  return {
    deliver(notification) {
      log('ingestion result', { ...notification.payload, event: notification.event });
      return Promise.resolve();
    },
  };
}
