// What other modules may use of the protocol (see README "Adding a module").
export { visibleDocuments } from './documents/visibility.ts';
