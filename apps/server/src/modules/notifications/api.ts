// What other modules may use of the notifications (see README "Adding a module").
export { type Notification, notificationInsert, notify } from './notifications.service.ts';
