-- Greek-aware text search: accents, case and final sigma (ς/σ) do not matter, index-backed.
CREATE EXTENSION IF NOT EXISTS unaccent;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
-- unaccent() is only STABLE, so it cannot back an index; this wrapper names the dictionary
-- explicitly and is declared IMMUTABLE. lower() is followed by an explicit Greek fold so the
-- result does not depend on the server's LC_CTYPE, and ς becomes σ.
CREATE OR REPLACE FUNCTION norm_text(value text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT translate(lower(public.unaccent('public.unaccent'::regdictionary, value)), 'ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩς', 'αβγδεζηθικλμνξοπρστυφχψωσ') $$;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS users_lastname_norm_trgm ON users USING gin (norm_text(lastname) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS users_firstname_norm_trgm ON users USING gin (norm_text(firstname) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS users_username_norm_trgm ON users USING gin (norm_text(username) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS users_email_norm_trgm ON users USING gin (norm_text(email) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS users_lastname_norm_sort ON users (norm_text(lastname), id);
