-- Issue 29 item 11: a company's seat and contact details, and whether it is active. An inactive
-- company is closed to its operators: live_session (0038) leaves it out of their companies, so the
-- session's fingerprint changes and every node re-reads it at the next request.
ALTER TABLE "companies" ADD COLUMN "address" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "city" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "zipcode" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "phone" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "email" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "active" boolean DEFAULT true NOT NULL;--> statement-breakpoint
CREATE OR REPLACE FUNCTION live_session(session_id text, user_id integer)
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
        ELSE ARRAY(SELECT cu.company_id FROM company_users cu JOIN companies c ON c.id = cu.company_id
          WHERE cu.user_id = u.id AND c.active ORDER BY cu.company_id) END
    FROM sessions s JOIN users u ON u.id = s.user_id
    WHERE s.id = live_session.session_id AND s.user_id = live_session.user_id
      AND s.revoked_at IS NULL AND s.expires_at > now() AND u.active) AS live;
END $$;
