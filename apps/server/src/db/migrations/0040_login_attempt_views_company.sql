-- A sign-in's reservation (users' `checkCredentials`, issue 29 item 2): before the password is verified,
-- the attempt is counted and, when the user name's limit still allows it, recorded as a failure in the
-- same call; a successful sign-in deletes its row again (`openSession`). Concurrent attempts for one
-- name (or from one address) wait for each other on a transaction advisory lock, and PL/pgSQL counts
-- with a snapshot taken after the lock, so it sees every earlier attempt: 60 wrong passwords at once
-- get 10 verifications and 50 refusals, however they arrive. `byName`/`byIp`: the failures in the
-- window before this attempt, and the seconds until the oldest leaves it; `reserved`: the row recorded,
-- null when refused. Its commit does not wait for the WAL flush, as the session row's does not
-- (`sessionOpening`): a database crash in that fraction of a second forgets the attempt.
CREATE FUNCTION login_attempt(name_key text, address text, name_limit integer, window_seconds integer)
  RETURNS TABLE ("byName" json, "byIp" json, reserved bigint)
  LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  since timestamptz := clock_timestamp() - make_interval(secs => window_seconds);
  name_n integer;
  name_oldest timestamptz;
  ip_n integer;
  ip_oldest timestamptz;
  row_id bigint;
BEGIN
  -- Always the name first, then the address: no two sign-ins wait for each other in a cycle.
  PERFORM pg_advisory_xact_lock(72510041, hashtext(name_key));
  PERFORM pg_advisory_xact_lock(72510042, hashtext(address));
  SELECT count(*), min(f.at) INTO name_n, name_oldest FROM login_failures f
    WHERE f.username = name_key AND f.at > since;
  SELECT count(*), min(f.at) INTO ip_n, ip_oldest FROM login_failures f
    WHERE f.ip = address AND f.at > since;
  IF name_n < name_limit THEN
    INSERT INTO login_failures (username, ip, at) VALUES (name_key, address, clock_timestamp())
      RETURNING id INTO row_id;
    PERFORM set_config('synchronous_commit', 'off', true);
  END IF;
  RETURN QUERY SELECT
    json_build_object('n', name_n, 'retryAfter',
      ceil(window_seconds - extract(epoch FROM clock_timestamp() - name_oldest))::int),
    json_build_object('n', ip_n, 'retryAfter',
      ceil(window_seconds - extract(epoch FROM clock_timestamp() - ip_oldest))::int),
    row_id;
END $$;
--> statement-breakpoint
ALTER TABLE "user_meta" ADD COLUMN "company_id" integer;
--> statement-breakpoint
-- Shared views saved before views had a company (issue 29 item 3): a super administrator's stay shared
-- with every company; another administrator's belong to the company the server used for them (their
-- first, as the web app named none); one whose author works for no company becomes the author's own.
UPDATE user_meta m SET company_id = (SELECT min(cu.company_id) FROM company_users cu WHERE cu.user_id = m.user_id)
  WHERE m.global = 1 AND NOT EXISTS (SELECT FROM users u WHERE u.id = m.user_id AND u.super_admin);
--> statement-breakpoint
UPDATE user_meta m SET global = 0
  WHERE m.global = 1 AND m.company_id IS NULL AND NOT EXISTS (SELECT FROM users u WHERE u.id = m.user_id AND u.super_admin);
