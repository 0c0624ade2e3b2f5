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