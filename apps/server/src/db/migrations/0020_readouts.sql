CREATE TABLE "readout_import_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"content" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "readout_readings" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"route_period_id" integer NOT NULL,
	"consumer_id" integer NOT NULL,
	"meter_id" integer,
	"reading" integer,
	"read_on" date NOT NULL,
	"source" smallint NOT NULL,
	"unable_reason" smallint,
	"note" text,
	"previous_reading" integer,
	"consumption" integer,
	"basis" text,
	"flags" text[] DEFAULT '{}'::text[] NOT NULL,
	"review" smallint DEFAULT 0 NOT NULL,
	"estimated" boolean DEFAULT false NOT NULL,
	"corrects_id" integer,
	"replaces_id" integer,
	"superseded_at" timestamp with time zone,
	"idempotency_key" text,
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
CREATE TABLE "readout_route_periods" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"route_id" integer NOT NULL,
	"year" integer NOT NULL,
	"period" smallint NOT NULL,
	"months" smallint NOT NULL,
	"from_date" date NOT NULL,
	"to_date" date NOT NULL,
	"state" smallint DEFAULT 0 NOT NULL,
	"held_by" text,
	"held_until" timestamp with time zone,
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
ALTER TABLE "readout_import_files" ADD CONSTRAINT "readout_import_files_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "readout_readings" ADD CONSTRAINT "readout_readings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "readout_readings" ADD CONSTRAINT "readout_readings_route_period_id_readout_route_periods_id_fk" FOREIGN KEY ("route_period_id") REFERENCES "public"."readout_route_periods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "readout_readings" ADD CONSTRAINT "readout_readings_consumer_id_water_consumers_id_fk" FOREIGN KEY ("consumer_id") REFERENCES "public"."water_consumers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "readout_readings" ADD CONSTRAINT "readout_readings_meter_id_water_meters_id_fk" FOREIGN KEY ("meter_id") REFERENCES "public"."water_meters"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "readout_readings" ADD CONSTRAINT "readout_readings_corrects_id_readout_readings_id_fk" FOREIGN KEY ("corrects_id") REFERENCES "public"."readout_readings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "readout_readings" ADD CONSTRAINT "readout_readings_replaces_id_readout_readings_id_fk" FOREIGN KEY ("replaces_id") REFERENCES "public"."readout_readings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "readout_route_periods" ADD CONSTRAINT "readout_route_periods_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "readout_route_periods" ADD CONSTRAINT "readout_route_periods_route_id_water_routes_id_fk" FOREIGN KEY ("route_id") REFERENCES "public"."water_routes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "readout_readings_current" ON "readout_readings" USING btree ("route_period_id","consumer_id") WHERE superseded_at IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "readout_readings_idempotency" ON "readout_readings" USING btree ("company_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "readout_readings_consumer_idx" ON "readout_readings" USING btree ("consumer_id","read_on");--> statement-breakpoint
CREATE UNIQUE INDEX "readout_route_periods_unique" ON "readout_route_periods" USING btree ("company_id","route_id","year","period");