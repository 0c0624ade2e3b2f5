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
