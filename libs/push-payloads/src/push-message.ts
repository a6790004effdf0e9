/** What Herald pushes, provider-neutral: the content, and the ids the device echoes to `PUT …/open`. */
export interface PushMessage {
  notification_id: string;
  project_id: string;
  title: string;
  body: string;
  link_to?: string | undefined;
  group?: string | undefined;
}

/**
 * Both providers cap a notification's payload at 4 KB:
 * APNs https://developer.apple.com/documentation/usernotifications/sending-notification-requests-to-apns
 * ("The maximum size of the payload is 4096 bytes"),
 * FCM https://firebase.google.com/docs/cloud-messaging/concept-options#notifications_and_data_messages
 * ("The maximum payload for both message types is 4096 bytes").
 */
export const PROVIDER_PAYLOAD_LIMIT_BYTES = 4096;
