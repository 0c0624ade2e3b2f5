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