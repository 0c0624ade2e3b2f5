-- The company wall (db/wall.ts): row-level security on every company-owned table, so a statement run
-- for a company sees and writes only that company's rows even where its own condition is missing.
-- The policies bind the role protocol_app, which the server takes for a company's work; the
-- connecting user (migrations, start-up, the jobs' queue) is not bound by them. Where the migrating
-- user may not create or take the role, the server starts without the wall and says so.
DO $$ BEGIN
  CREATE ROLE protocol_app NOLOGIN;
EXCEPTION WHEN duplicate_object OR unique_violation OR insufficient_privilege THEN NULL;
END $$;
--> statement-breakpoint
DO $$ BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'protocol_app')
     AND NOT pg_has_role(current_user, 'protocol_app', 'MEMBER') THEN
    EXECUTE format('GRANT protocol_app TO %I', current_user);
  END IF;
EXCEPTION WHEN insufficient_privilege THEN RAISE NOTICE 'protocol_app: % may not take the role', current_user;
END $$;
--> statement-breakpoint
DO $$ BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'protocol_app') THEN
    GRANT USAGE ON SCHEMA public TO protocol_app;
    GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO protocol_app;
    GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO protocol_app;
    ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO protocol_app;
    ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO protocol_app;
  END IF;
END $$;
--> statement-breakpoint
-- A company-owned table's wall, for this migration and every later one that adds such a table:
-- SELECT company_wall('<table>'). A row of no company (a nullable company_id) is everyone's.
CREATE OR REPLACE FUNCTION company_wall(owned regclass) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  nullable boolean;
  allowed text;
BEGIN
  SELECT NOT attnotnull INTO nullable FROM pg_attribute
   WHERE attrelid = owned AND attname = 'company_id' AND NOT attisdropped;
  IF nullable IS NULL THEN RAISE EXCEPTION '% has no company_id', owned; END IF;
  allowed := 'company_id = nullif(current_setting(''app.company_id'', true), '''')::integer';
  IF nullable THEN allowed := 'company_id IS NULL OR ' || allowed; END IF;
  EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', owned);
  EXECUTE format('DROP POLICY IF EXISTS company_wall ON %s', owned);
  EXECUTE format('CREATE POLICY company_wall ON %s USING (%s) WITH CHECK (%s)', owned, allowed, allowed);
END $$;
--> statement-breakpoint
-- Every table with a company_id but the operators' memberships, which the session reads across
-- companies (an operator's companies are the point).
SELECT company_wall(format('%I', c.relname)::regclass)
  FROM pg_class c
  JOIN pg_namespace n ON n.oid = c.relnamespace
  JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'company_id' AND NOT a.attisdropped
 WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname <> 'company_users';
--> statement-breakpoint
-- A session is read whole, across the operator's companies (their groups in each), also by a
-- statement that runs behind one company's wall: the functions run as their owner.
ALTER FUNCTION live_session(text, integer) SECURITY DEFINER SET search_path = public, pg_temp;
--> statement-breakpoint
ALTER FUNCTION session_held(text, integer, text) SECURITY DEFINER SET search_path = public, pg_temp;
--> statement-breakpoint
-- Under row-level security a search condition may use its index only if its operator leaks nothing
-- of the row it reads. LIKE's errors and the full-text match's depend on the pattern alone, so the
-- lists' and the global search's indexes stay in use. Only a superuser may say so; elsewhere the
-- searches still answer, scanning the company's rows instead.
DO $$ BEGIN
  ALTER FUNCTION pg_catalog.textlike(text, text) LEAKPROOF;
  ALTER FUNCTION pg_catalog.texticlike(text, text) LEAKPROOF;
  ALTER FUNCTION pg_catalog.ts_match_vq(tsvector, tsquery) LEAKPROOF;
EXCEPTION WHEN insufficient_privilege THEN
  RAISE NOTICE 'company wall: searches scan instead of using their indexes (not a superuser)';
END $$;
