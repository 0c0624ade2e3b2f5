CREATE TABLE "water_areas" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"code" text NOT NULL,
	"description" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"createuser" text,
	"createdate" timestamp with time zone DEFAULT now(),
	"updateuser" text,
	"updatedate" timestamp with time zone,
	"defuser" text,
	"defdate" timestamp with time zone,
	"changeuser" text,
	"changedate" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "water_buildings" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"code" text NOT NULL,
	"description" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"createuser" text,
	"createdate" timestamp with time zone DEFAULT now(),
	"updateuser" text,
	"updatedate" timestamp with time zone,
	"defuser" text,
	"defdate" timestamp with time zone,
	"changeuser" text,
	"changedate" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "water_connection_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"code" text NOT NULL,
	"description" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"createuser" text,
	"createdate" timestamp with time zone DEFAULT now(),
	"updateuser" text,
	"updatedate" timestamp with time zone,
	"defuser" text,
	"defdate" timestamp with time zone,
	"changeuser" text,
	"changedate" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "water_encoding_codes" (
	"company_id" integer PRIMARY KEY NOT NULL,
	"levels" smallint NOT NULL,
	"level1" smallint,
	"level2" smallint,
	"level3" smallint,
	"level4" smallint,
	"level5" smallint,
	"leveltable1" smallint,
	"leveltable2" smallint,
	"leveltable3" smallint,
	"leveltable4" smallint,
	"leveltable5" smallint,
	"cfieldid1" integer,
	"cfieldid2" integer,
	"cfieldid3" integer,
	"cfieldid4" integer,
	"cfieldid5" integer,
	"separator" text DEFAULT '' NOT NULL,
	"createuser" text,
	"createdate" timestamp with time zone DEFAULT now(),
	"updateuser" text,
	"updatedate" timestamp with time zone,
	"defuser" text,
	"defdate" timestamp with time zone,
	"changeuser" text,
	"changedate" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "water_invoice_policies" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"description" text NOT NULL,
	"fromdate" date NOT NULL,
	"todate" date,
	"bonusdays" integer DEFAULT 0 NOT NULL,
	"expiredays" integer DEFAULT 0 NOT NULL,
	"min_consumption" integer DEFAULT 0 NOT NULL,
	"envtax" numeric(12, 4) DEFAULT '0' NOT NULL,
	"resourcetax" numeric(12, 4) DEFAULT '0' NOT NULL,
	"periodicity_id" integer NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"createuser" text,
	"createdate" timestamp with time zone DEFAULT now(),
	"updateuser" text,
	"updatedate" timestamp with time zone,
	"defuser" text,
	"defdate" timestamp with time zone,
	"changeuser" text,
	"changedate" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "water_meter_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"code" text NOT NULL,
	"description" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"createuser" text,
	"createdate" timestamp with time zone DEFAULT now(),
	"updateuser" text,
	"updatedate" timestamp with time zone,
	"defuser" text,
	"defdate" timestamp with time zone,
	"changeuser" text,
	"changedate" timestamp with time zone,
	"meter_kind" smallint NOT NULL,
	"diameter" text,
	"digits" smallint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "water_pipe_diameters" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"code" text NOT NULL,
	"description" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"createuser" text,
	"createdate" timestamp with time zone DEFAULT now(),
	"updateuser" text,
	"updatedate" timestamp with time zone,
	"defuser" text,
	"defdate" timestamp with time zone,
	"changeuser" text,
	"changedate" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "water_property_usages" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"code" text NOT NULL,
	"description" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"createuser" text,
	"createdate" timestamp with time zone DEFAULT now(),
	"updateuser" text,
	"updatedate" timestamp with time zone,
	"defuser" text,
	"defdate" timestamp with time zone,
	"changeuser" text,
	"changedate" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "water_routes" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"code" text NOT NULL,
	"description" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"createuser" text,
	"createdate" timestamp with time zone DEFAULT now(),
	"updateuser" text,
	"updatedate" timestamp with time zone,
	"defuser" text,
	"defdate" timestamp with time zone,
	"changeuser" text,
	"changedate" timestamp with time zone,
	"sector_id" integer NOT NULL,
	"reading_order" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "water_sectors" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"code" text NOT NULL,
	"description" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"createuser" text,
	"createdate" timestamp with time zone DEFAULT now(),
	"updateuser" text,
	"updatedate" timestamp with time zone,
	"defuser" text,
	"defdate" timestamp with time zone,
	"changeuser" text,
	"changedate" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "water_sewerage_indicators" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"code" text NOT NULL,
	"description" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"createuser" text,
	"createdate" timestamp with time zone DEFAULT now(),
	"updateuser" text,
	"updatedate" timestamp with time zone,
	"defuser" text,
	"defdate" timestamp with time zone,
	"changeuser" text,
	"changedate" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "water_special_regulations" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"code" text NOT NULL,
	"description" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"createuser" text,
	"createdate" timestamp with time zone DEFAULT now(),
	"updateuser" text,
	"updatedate" timestamp with time zone,
	"defuser" text,
	"defdate" timestamp with time zone,
	"changeuser" text,
	"changedate" timestamp with time zone,
	"required_documents" text
);
--> statement-breakpoint
ALTER TABLE "water_areas" ADD CONSTRAINT "water_areas_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "water_buildings" ADD CONSTRAINT "water_buildings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "water_connection_types" ADD CONSTRAINT "water_connection_types_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "water_encoding_codes" ADD CONSTRAINT "water_encoding_codes_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "water_invoice_policies" ADD CONSTRAINT "water_invoice_policies_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "water_invoice_policies" ADD CONSTRAINT "water_invoice_policies_periodicity_id_periodicities_id_fk" FOREIGN KEY ("periodicity_id") REFERENCES "public"."periodicities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "water_meter_types" ADD CONSTRAINT "water_meter_types_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "water_pipe_diameters" ADD CONSTRAINT "water_pipe_diameters_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "water_property_usages" ADD CONSTRAINT "water_property_usages_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "water_routes" ADD CONSTRAINT "water_routes_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "water_routes" ADD CONSTRAINT "water_routes_sector_id_water_sectors_id_fk" FOREIGN KEY ("sector_id") REFERENCES "public"."water_sectors"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "water_sectors" ADD CONSTRAINT "water_sectors_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "water_sewerage_indicators" ADD CONSTRAINT "water_sewerage_indicators_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "water_special_regulations" ADD CONSTRAINT "water_special_regulations_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "water_invoice_policies_company_idx" ON "water_invoice_policies" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "water_routes_sector_idx" ON "water_routes" USING btree ("sector_id");--> statement-breakpoint
-- Codes unique per company (routes per sector), deferred so a row-table save may swap two codes.
ALTER TABLE "water_sectors" ADD CONSTRAINT "water_sectors_code_unique" UNIQUE ("company_id", "code") DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "water_areas" ADD CONSTRAINT "water_areas_code_unique" UNIQUE ("company_id", "code") DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "water_buildings" ADD CONSTRAINT "water_buildings_code_unique" UNIQUE ("company_id", "code") DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "water_property_usages" ADD CONSTRAINT "water_property_usages_code_unique" UNIQUE ("company_id", "code") DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "water_connection_types" ADD CONSTRAINT "water_connection_types_code_unique" UNIQUE ("company_id", "code") DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "water_sewerage_indicators" ADD CONSTRAINT "water_sewerage_indicators_code_unique" UNIQUE ("company_id", "code") DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "water_pipe_diameters" ADD CONSTRAINT "water_pipe_diameters_code_unique" UNIQUE ("company_id", "code") DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "water_meter_types" ADD CONSTRAINT "water_meter_types_code_unique" UNIQUE ("company_id", "code") DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "water_special_regulations" ADD CONSTRAINT "water_special_regulations_code_unique" UNIQUE ("company_id", "code") DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "water_routes" ADD CONSTRAINT "water_routes_code_unique" UNIQUE ("company_id", "sector_id", "code") DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "water_invoice_policies" ADD CONSTRAINT "water_invoice_policies_description_unique" UNIQUE ("company_id", "description") DEFERRABLE INITIALLY DEFERRED;
--> statement-breakpoint
CREATE TABLE "water_consumers" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"code" text NOT NULL,
	"sector_id" integer,
	"route_id" integer,
	"route_position" integer,
	"department_id" integer,
	"area_id" integer,
	"address_id" integer,
	"building_id" integer,
	"owner_id" integer NOT NULL,
	"liable_id" integer,
	"receiver_id" integer,
	"supply_address" text NOT NULL,
	"supply_postal_code" text,
	"mailing_address" text,
	"property_usage_id" integer,
	"connection_type_id" integer,
	"sewerage_indicator_id" integer,
	"pipe_diameter_id" integer,
	"invoice_policy_id" integer,
	"special_regulation_id" integer,
	"special_from" date,
	"special_to" date,
	"application_date" date,
	"connection_date" date,
	"contract_date" date,
	"disconnection_date" date,
	"status" smallint DEFAULT 0 NOT NULL,
	"notes" text,
	"custom_fields" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"code_norm" text GENERATED ALWAYS AS (norm_text(code)) STORED,
	"supply_address_norm" text GENERATED ALWAYS AS (norm_text(supply_address)) STORED,
	"createuser" text,
	"createdate" timestamp with time zone DEFAULT now(),
	"updateuser" text,
	"updatedate" timestamp with time zone,
	"defuser" text,
	"defdate" timestamp with time zone,
	"changeuser" text,
	"changedate" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "water_consumers" ADD CONSTRAINT "water_consumers_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "water_consumers" ADD CONSTRAINT "water_consumers_sector_id_water_sectors_id_fk" FOREIGN KEY ("sector_id") REFERENCES "public"."water_sectors"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "water_consumers" ADD CONSTRAINT "water_consumers_route_id_water_routes_id_fk" FOREIGN KEY ("route_id") REFERENCES "public"."water_routes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "water_consumers" ADD CONSTRAINT "water_consumers_department_id_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "water_consumers" ADD CONSTRAINT "water_consumers_area_id_water_areas_id_fk" FOREIGN KEY ("area_id") REFERENCES "public"."water_areas"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "water_consumers" ADD CONSTRAINT "water_consumers_address_id_addresses_id_fk" FOREIGN KEY ("address_id") REFERENCES "public"."addresses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "water_consumers" ADD CONSTRAINT "water_consumers_building_id_water_buildings_id_fk" FOREIGN KEY ("building_id") REFERENCES "public"."water_buildings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "water_consumers" ADD CONSTRAINT "water_consumers_owner_id_traders_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."traders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "water_consumers" ADD CONSTRAINT "water_consumers_liable_id_traders_id_fk" FOREIGN KEY ("liable_id") REFERENCES "public"."traders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "water_consumers" ADD CONSTRAINT "water_consumers_receiver_id_traders_id_fk" FOREIGN KEY ("receiver_id") REFERENCES "public"."traders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "water_consumers" ADD CONSTRAINT "water_consumers_property_usage_id_water_property_usages_id_fk" FOREIGN KEY ("property_usage_id") REFERENCES "public"."water_property_usages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "water_consumers" ADD CONSTRAINT "water_consumers_connection_type_id_water_connection_types_id_fk" FOREIGN KEY ("connection_type_id") REFERENCES "public"."water_connection_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "water_consumers" ADD CONSTRAINT "water_consumers_sewerage_indicator_id_water_sewerage_indicators_id_fk" FOREIGN KEY ("sewerage_indicator_id") REFERENCES "public"."water_sewerage_indicators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "water_consumers" ADD CONSTRAINT "water_consumers_pipe_diameter_id_water_pipe_diameters_id_fk" FOREIGN KEY ("pipe_diameter_id") REFERENCES "public"."water_pipe_diameters"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "water_consumers" ADD CONSTRAINT "water_consumers_invoice_policy_id_water_invoice_policies_id_fk" FOREIGN KEY ("invoice_policy_id") REFERENCES "public"."water_invoice_policies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "water_consumers" ADD CONSTRAINT "water_consumers_special_regulation_id_water_special_regulations_id_fk" FOREIGN KEY ("special_regulation_id") REFERENCES "public"."water_special_regulations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "water_consumers_code_unique" ON "water_consumers" USING btree ("company_id","code");--> statement-breakpoint
CREATE INDEX "water_consumers_code_norm_trgm" ON "water_consumers" USING gin ("code_norm" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "water_consumers_supply_address_norm_trgm" ON "water_consumers" USING gin ("supply_address_norm" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "water_consumers_route_idx" ON "water_consumers" USING btree ("route_id","route_position");--> statement-breakpoint
CREATE INDEX "water_consumers_owner_idx" ON "water_consumers" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "water_consumers_liable_idx" ON "water_consumers" USING btree ("liable_id");--> statement-breakpoint
CREATE INDEX "water_consumers_receiver_idx" ON "water_consumers" USING btree ("receiver_id");
--> statement-breakpoint
CREATE TABLE "water_consumer_transactions" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"consumer_id" integer NOT NULL,
	"kind" smallint NOT NULL,
	"date" date NOT NULL,
	"parent_id" integer,
	"reading" integer,
	"previous_reading" integer,
	"meter_id" integer,
	"new_meter_id" integer,
	"new_reading" integer,
	"amount" numeric(12, 2),
	"comments" text,
	"billed_on" date,
	"createuser" text,
	"createdate" timestamp with time zone DEFAULT now(),
	"updateuser" text,
	"updatedate" timestamp with time zone,
	"defuser" text,
	"defdate" timestamp with time zone,
	"changeuser" text,
	"changedate" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "water_meter_installations" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"consumer_id" integer NOT NULL,
	"meter_id" integer NOT NULL,
	"installed_on" date NOT NULL,
	"initial_reading" integer NOT NULL,
	"removed_on" date,
	"final_reading" integer,
	"createuser" text,
	"createdate" timestamp with time zone DEFAULT now(),
	"updateuser" text,
	"updatedate" timestamp with time zone,
	"defuser" text,
	"defdate" timestamp with time zone,
	"changeuser" text,
	"changedate" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "water_meters" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"serial_number" text NOT NULL,
	"meter_type_id" integer,
	"kind" smallint NOT NULL,
	"direction" smallint DEFAULT 1 NOT NULL,
	"diameter" text,
	"digits" smallint NOT NULL,
	"createuser" text,
	"createdate" timestamp with time zone DEFAULT now(),
	"updateuser" text,
	"updatedate" timestamp with time zone,
	"defuser" text,
	"defdate" timestamp with time zone,
	"changeuser" text,
	"changedate" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "water_consumer_transactions" ADD CONSTRAINT "water_consumer_transactions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "water_consumer_transactions" ADD CONSTRAINT "water_consumer_transactions_consumer_id_water_consumers_id_fk" FOREIGN KEY ("consumer_id") REFERENCES "public"."water_consumers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "water_consumer_transactions" ADD CONSTRAINT "water_consumer_transactions_parent_id_water_consumer_transactions_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."water_consumer_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "water_consumer_transactions" ADD CONSTRAINT "water_consumer_transactions_meter_id_water_meters_id_fk" FOREIGN KEY ("meter_id") REFERENCES "public"."water_meters"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "water_consumer_transactions" ADD CONSTRAINT "water_consumer_transactions_new_meter_id_water_meters_id_fk" FOREIGN KEY ("new_meter_id") REFERENCES "public"."water_meters"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "water_meter_installations" ADD CONSTRAINT "water_meter_installations_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "water_meter_installations" ADD CONSTRAINT "water_meter_installations_consumer_id_water_consumers_id_fk" FOREIGN KEY ("consumer_id") REFERENCES "public"."water_consumers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "water_meter_installations" ADD CONSTRAINT "water_meter_installations_meter_id_water_meters_id_fk" FOREIGN KEY ("meter_id") REFERENCES "public"."water_meters"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "water_meters" ADD CONSTRAINT "water_meters_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "water_meters" ADD CONSTRAINT "water_meters_meter_type_id_water_meter_types_id_fk" FOREIGN KEY ("meter_type_id") REFERENCES "public"."water_meter_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "water_consumer_transactions_consumer_idx" ON "water_consumer_transactions" USING btree ("consumer_id","date");--> statement-breakpoint
CREATE INDEX "water_consumer_transactions_unbilled_idx" ON "water_consumer_transactions" USING btree ("company_id","kind") WHERE billed_on IS NULL;--> statement-breakpoint
CREATE INDEX "water_meter_installations_consumer_idx" ON "water_meter_installations" USING btree ("consumer_id","installed_on");--> statement-breakpoint
CREATE UNIQUE INDEX "water_meter_installations_consumer_on" ON "water_meter_installations" USING btree ("consumer_id") WHERE removed_on IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "water_meter_installations_meter_on" ON "water_meter_installations" USING btree ("meter_id") WHERE removed_on IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "water_meters_serial_unique" ON "water_meters" USING btree ("company_id","serial_number");
--> statement-breakpoint
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
--> statement-breakpoint
CREATE TABLE "water_import_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"content" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "water_import_files" ADD CONSTRAINT "water_import_files_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;
