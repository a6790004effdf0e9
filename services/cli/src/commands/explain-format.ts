import type { DeviceExplanation, NotificationExplanation } from '@herald/explain';

/** A device's timeline as lines for a terminal (pure). */
export function deviceLines(answer: DeviceExplanation): string[] {
  const lines = [
    `device ${answer.device_id} (project ${answer.project_id}), ${answer.status}, herald.device-events partition ${answer.partition}`,
    `read ${answer.scanned_records} log records; receipts of ${answer.notifications.length} notification(s)`,
  ];
  for (const entry of answer.timeline) {
    const about = entry.notification_id === undefined ? '' : ` [notification ${entry.notification_id}]`;
    const evidence = entry.evidence === undefined ? '' : ` evidence: ${entry.evidence.provider} ${entry.evidence.reason}${entry.evidence.provider_timestamp === null ? '' : ` at ${entry.evidence.provider_timestamp}`}`;
    lines.push(`${entry.at}  ${entry.kind.padEnd(20)} ${entry.summary}${about}${evidence}  (${entry.log.topic}[${entry.log.partition}]@${entry.log.offset})`);
  }
  return lines;
}

/** A notification (and one device's reach) as lines for a terminal (pure). */
export function notificationLines(answer: NotificationExplanation): string[] {
  const { notification } = answer;
  const lines = [
    `notification ${notification.id} (project ${notification.project_id}) requested at ${notification.requested_at}`,
    `targets ${JSON.stringify(notification.targets)}; ${notification.dispatches} dispatch(es)` +
      (notification.cancelled_at === null ? '' : `; cancelled at ${notification.cancelled_at}`) +
      (notification.expired === null ? '' : `; expired at ${notification.expired.at} (${notification.expired.reason})`),
  ];
  const device = answer.device;
  if (device !== null) {
    lines.push(`device ${device.device_id}: ${device.reached ? 'reached' : 'not reached'} — ${device.reason}`, `  ${device.summary}`);
    if (device.audience_position !== null) lines.push(`  audience taken at herald.device-events[${device.audience_position.partition}] offset ${device.audience_position.offset}`);
    for (const clause of device.clauses) lines.push(`  ${clause.matched ? '✓' : '✗'} ${clause.detail}`);
    if (device.evidence !== null) lines.push(`  evidence: ${device.evidence.provider} ${device.evidence.reason}${device.evidence.notification_id === null ? '' : ` (answering notification ${device.evidence.notification_id})`}`);
    for (const receipt of device.receipts) lines.push(`  receipt: ${receipt.provider} ${receipt.outcome}${receipt.reason === null ? '' : ` (${receipt.reason})`} at ${receipt.at}`);
  }
  lines.push(`read ${answer.scanned_records} log records`);
  return lines;
}
