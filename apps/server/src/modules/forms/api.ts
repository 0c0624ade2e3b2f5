// What other modules may use of online forms (see README "Adding a module").

/** The public pages' rate limit per address (10 attempts in 10 minutes, 429 with Retry-After beyond). */
export { countAttempt as countPublicAttempt, PUBLIC_LIMIT } from './public.service.ts';
