CREATE TABLE "settlement_categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"code" text NOT NULL,
	"description" text NOT NULL,
	"min_instalment" numeric(14, 2) NOT NULL,
	"max_instalment" numeric(14, 2) NOT NULL,
	"max_instalments" integer NOT NULL,
	"min_down_payment_percent" numeric(5, 2) NOT NULL,
	"interval_days" integer DEFAULT 0 NOT NULL,
	"tolerance_instalments" integer DEFAULT 1 NOT NULL,
	"tolerance_days" integer DEFAULT 30 NOT NULL,
	"waive_interest" boolean DEFAULT false NOT NULL,
	"discount_percent" numeric(5, 2) DEFAULT '0' NOT NULL,
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
CREATE TABLE "settlement_counters" (
	"company_id" integer NOT NULL,
	"year" integer NOT NULL,
	"last" integer NOT NULL,
	CONSTRAINT "settlement_counters_company_id_year_pk" PRIMARY KEY("company_id","year")
);
--> statement-breakpoint
CREATE TABLE "settlement_instalments" (
	"settlement_id" integer NOT NULL,
	"number" integer NOT NULL,
	"debt_id" integer NOT NULL,
	"due_date" date NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	CONSTRAINT "settlement_instalments_settlement_id_number_pk" PRIMARY KEY("settlement_id","number")
);
--> statement-breakpoint
CREATE TABLE "settlements" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"year" integer NOT NULL,
	"nr" integer NOT NULL,
	"date" date NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"consumer_id" integer NOT NULL,
	"category_id" integer NOT NULL,
	"debts_total" numeric(14, 2) NOT NULL,
	"interest" numeric(14, 2) NOT NULL,
	"discount_percent" numeric(5, 2) NOT NULL,
	"discount" numeric(14, 2) NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"down_payment" numeric(14, 2) NOT NULL,
	"installments" integer NOT NULL,
	"debts" jsonb NOT NULL,
	"comments" text,
	"activated_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
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
ALTER TABLE "settlement_categories" ADD CONSTRAINT "settlement_categories_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_counters" ADD CONSTRAINT "settlement_counters_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_instalments" ADD CONSTRAINT "settlement_instalments_settlement_id_settlements_id_fk" FOREIGN KEY ("settlement_id") REFERENCES "public"."settlements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_instalments" ADD CONSTRAINT "settlement_instalments_debt_id_payments_debts_id_fk" FOREIGN KEY ("debt_id") REFERENCES "public"."payments_debts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_consumer_id_water_consumers_id_fk" FOREIGN KEY ("consumer_id") REFERENCES "public"."water_consumers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_category_id_settlement_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."settlement_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "settlement_categories_code" ON "settlement_categories" USING btree ("company_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "settlement_instalments_debt" ON "settlement_instalments" USING btree ("debt_id");--> statement-breakpoint
CREATE UNIQUE INDEX "settlements_number" ON "settlements" USING btree ("company_id","year","nr");--> statement-breakpoint
CREATE INDEX "settlements_consumer" ON "settlements" USING btree ("consumer_id");--> statement-breakpoint
CREATE INDEX "settlements_company_date" ON "settlements" USING btree ("company_id","date");--> statement-breakpoint
CREATE INDEX "settlements_active" ON "settlements" USING btree ("company_id") WHERE status = 1;--> statement-breakpoint
-- Companies made before settlements get the defaults a new company gets (contracts defaultSettlementCategories).
INSERT INTO "settlement_categories" ("company_id", "code", "description", "min_instalment", "max_instalment", "max_instalments", "min_down_payment_percent", "interval_days", "tolerance_instalments", "tolerance_days", "waive_interest", "discount_percent", "createuser")
SELECT c.id, d.code, d.description, d.min_i, d.max_i, d.n, d.down, 0, d.tol, 30, d.waive, 0, 'system'
  FROM "companies" c
 CROSS JOIN (VALUES
   ('12', 'Ρύθμιση έως 12 δόσεις', 20.00, 5000.00, 12, 10.00, 1, true),
   ('24', 'Ρύθμιση έως 24 δόσεις', 30.00, 5000.00, 24, 20.00, 1, false),
   ('48', 'Ρύθμιση έως 48 δόσεις', 50.00, 5000.00, 48, 30.00, 2, false)
 ) AS d(code, description, min_i, max_i, n, down, tol, waive)
ON CONFLICT DO NOTHING;
