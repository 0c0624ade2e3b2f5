CREATE TABLE "billing_bill_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"bill_id" integer NOT NULL,
	"position" smallint NOT NULL,
	"charge" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"band" smallint,
	"from_date" date,
	"to_date" date,
	"target" text,
	"quantity" numeric(14, 3),
	"price" numeric(14, 4),
	"amount" numeric(14, 2) NOT NULL,
	"vat_percent" numeric(5, 2) NOT NULL,
	"source_id" integer
);
--> statement-breakpoint
CREATE TABLE "billing_bills" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"consumer_id" integer NOT NULL,
	"period_from" date NOT NULL,
	"period_to" date NOT NULL,
	"period_label" text NOT NULL,
	"kind" smallint DEFAULT 1 NOT NULL,
	"entry_state" smallint DEFAULT 0 NOT NULL,
	"send_status" smallint DEFAULT 0 NOT NULL,
	"series_id" integer,
	"number" integer,
	"year" integer,
	"issue_date" date NOT NULL,
	"due_date" date NOT NULL,
	"previous_reading" integer,
	"previous_reading_date" date,
	"current_reading" integer,
	"current_reading_date" date,
	"consumption" numeric(14, 3) NOT NULL,
	"billed_consumption" numeric(14, 3) NOT NULL,
	"net" numeric(14, 2) NOT NULL,
	"vat_total" numeric(14, 2) NOT NULL,
	"previous_balance" numeric(14, 2) NOT NULL,
	"total" numeric(14, 2) NOT NULL,
	"paid" numeric(14, 2) DEFAULT '0' NOT NULL,
	"vat_breakdown" jsonb NOT NULL,
	"rf_code" text,
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
CREATE TABLE "billing_discount_policies" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"description" text NOT NULL,
	"fromdate" date NOT NULL,
	"todate" date,
	"reduction" smallint NOT NULL,
	"amount_type" smallint NOT NULL,
	"calculation" smallint NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"charges" text[] NOT NULL,
	"special_regulation_ids" integer[] NOT NULL,
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
CREATE TABLE "billing_pricing_policies" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"description" text NOT NULL,
	"property_usage_id" integer NOT NULL,
	"fromdate" date NOT NULL,
	"todate" date,
	"base_months" smallint DEFAULT 4 NOT NULL,
	"fixed_charges" jsonb NOT NULL,
	"bands" jsonb NOT NULL,
	"sewerage_mode" text NOT NULL,
	"sewerage_value" numeric(14, 4) DEFAULT '0' NOT NULL,
	"sewerage_indicator_ids" integer[] DEFAULT '{}' NOT NULL,
	"special_fees" jsonb NOT NULL,
	"vat" jsonb NOT NULL,
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
ALTER TABLE "billing_bill_lines" ADD CONSTRAINT "billing_bill_lines_bill_id_billing_bills_id_fk" FOREIGN KEY ("bill_id") REFERENCES "public"."billing_bills"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_bills" ADD CONSTRAINT "billing_bills_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_bills" ADD CONSTRAINT "billing_bills_consumer_id_water_consumers_id_fk" FOREIGN KEY ("consumer_id") REFERENCES "public"."water_consumers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_bills" ADD CONSTRAINT "billing_bills_series_id_finance_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."finance_series"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_discount_policies" ADD CONSTRAINT "billing_discount_policies_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_pricing_policies" ADD CONSTRAINT "billing_pricing_policies_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_pricing_policies" ADD CONSTRAINT "billing_pricing_policies_property_usage_id_water_property_usages_id_fk" FOREIGN KEY ("property_usage_id") REFERENCES "public"."water_property_usages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "billing_bill_lines_bill_position" ON "billing_bill_lines" USING btree ("bill_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_bills_consumer_period_kind" ON "billing_bills" USING btree ("consumer_id","period_from","kind");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_bills_rf_code" ON "billing_bills" USING btree ("rf_code");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_bills_number" ON "billing_bills" USING btree ("series_id","year","number");--> statement-breakpoint
CREATE INDEX "billing_bills_company_period_idx" ON "billing_bills" USING btree ("company_id","period_from");--> statement-breakpoint
CREATE INDEX "billing_discount_policies_company_idx" ON "billing_discount_policies" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "billing_pricing_policies_company_idx" ON "billing_pricing_policies" USING btree ("company_id","property_usage_id");