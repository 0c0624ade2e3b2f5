-- The consumers in the global search (consumerDTOList): the code's parts as words (padding and
-- separators dropped, so '01-001-1' finds '01-001-    1') and the supply address; the owner's name is found through the trader's own vector (see modules/water/search.ts).
ALTER TABLE "water_consumers" ADD COLUMN "search_vector" "tsvector";--> statement-breakpoint
CREATE FUNCTION water_consumers_search_vector(code text, supply_address text) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT to_tsvector('public.greek_unaccent', concat_ws(' ', regexp_replace(code, '[^[:alnum:]]+', ' ', 'g'), supply_address)) $$;
--> statement-breakpoint
CREATE FUNCTION water_consumers_search_vector_keep() RETURNS trigger LANGUAGE plpgsql
  AS $$ BEGIN NEW.search_vector := water_consumers_search_vector(NEW.code, NEW.supply_address); RETURN NEW; END $$;
--> statement-breakpoint
CREATE TRIGGER water_consumers_search_vector BEFORE INSERT OR UPDATE OF code, supply_address, search_vector
  ON water_consumers FOR EACH ROW EXECUTE FUNCTION water_consumers_search_vector_keep();
--> statement-breakpoint
UPDATE water_consumers SET search_vector = NULL;--> statement-breakpoint
CREATE INDEX "water_consumers_search_idx" ON "water_consumers" USING gin ("search_vector") WITH (fastupdate=false);
