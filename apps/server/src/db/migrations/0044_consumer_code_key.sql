ALTER TABLE "water_consumers" ADD COLUMN "code_key" text GENERATED ALWAYS AS (regexp_replace(norm_text(code), '[[:space:][:punct:]]', '', 'g')) STORED;--> statement-breakpoint
CREATE INDEX "water_consumers_code_key_trgm" ON "water_consumers" USING gin ("code_key" gin_trgm_ops);--> statement-breakpoint
-- The global search finds a consumer by its code typed without separators too ("01001101").
CREATE OR REPLACE FUNCTION water_consumers_search_vector(code text, supply_address text) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT to_tsvector('public.greek_unaccent', concat_ws(' ', regexp_replace(code, '[^[:alnum:]]+', ' ', 'g'), regexp_replace(code, '[^[:alnum:]]+', '', 'g'), supply_address)) $$;
--> statement-breakpoint
UPDATE water_consumers SET search_vector = NULL;
