// What other modules may use of the operators (see README "Adding a module").
export { createUser, resolveSession, sessionHeld, sessionHolds, sessionValues } from './users.service.ts';
