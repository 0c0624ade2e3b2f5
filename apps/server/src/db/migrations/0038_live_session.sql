-- The live session of a request (users' `resolveSession`): the session, not revoked nor expired, of an
-- active operator, with the permissions of their groups and their companies; no row otherwise.
-- `fingerprint` sums it all up: a statement on behalf of a session a node remembered checks it with
-- `session_held` (users' `sessionHolds`, `sessionHeld`). PL/pgSQL keeps its plan per connection, so a
-- list page or a write that checks the session in its own statement plans a function call, not these
-- subqueries, every time.
CREATE FUNCTION live_session(session_id text, user_id integer)
  RETURNS TABLE (id integer, username text, kind smallint, "superAdmin" boolean, sso boolean,
    granted text[], "companyIds" integer[], fingerprint text)
  LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY SELECT live.*, md5(row(live.*)::text)
  FROM (SELECT u.id, u.username, u.kind, u.super_admin, s.sso,
      ARRAY(SELECT DISTINCT p.permission FROM user_group_members m
        JOIN user_group_permissions p ON p.group_id = m.group_id
        WHERE m.user_id = u.id ORDER BY 1),
      CASE WHEN u.super_admin THEN ARRAY(SELECT c.id FROM companies c ORDER BY c.id)
        ELSE ARRAY(SELECT cu.company_id FROM company_users cu WHERE cu.user_id = u.id ORDER BY cu.company_id) END
    FROM sessions s JOIN users u ON u.id = s.user_id
    WHERE s.id = live_session.session_id AND s.user_id = live_session.user_id
      AND s.revoked_at IS NULL AND s.expires_at > now() AND u.active) AS live;
END $$;
--> statement-breakpoint
CREATE FUNCTION session_held(session_id text, user_id integer, fingerprint text) RETURNS boolean
  LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN EXISTS (SELECT FROM live_session(session_held.session_id, session_held.user_id) AS live
    WHERE live.fingerprint = session_held.fingerprint);
END $$;
