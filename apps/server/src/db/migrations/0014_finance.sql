CREATE TABLE "finance_accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"code" text NOT NULL,
	"descr" text NOT NULL,
	"kind" smallint NOT NULL,
	"aggregate" smallint DEFAULT 0 NOT NULL,
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
CREATE TABLE "finance_certification_counters" (
	"company_id" integer NOT NULL,
	"year" integer NOT NULL,
	"last" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "finance_certification_counters_company_id_year_pk" PRIMARY KEY("company_id","year")
);
--> statement-breakpoint
CREATE TABLE "finance_certification_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"certification_id" integer NOT NULL,
	"account_id" integer,
	"documents" integer NOT NULL,
	"net" numeric(14, 2) DEFAULT '0' NOT NULL,
	"vat" numeric(14, 2) DEFAULT '0' NOT NULL,
	"total" numeric(14, 2) DEFAULT '0' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "finance_certifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"number" integer,
	"year" integer,
	"date" date NOT NULL,
	"period_from" date NOT NULL,
	"period_to" date NOT NULL,
	"entry_state" smallint DEFAULT 0 NOT NULL,
	"documents" integer DEFAULT 0 NOT NULL,
	"net" numeric(14, 2) DEFAULT '0' NOT NULL,
	"vat" numeric(14, 2) DEFAULT '0' NOT NULL,
	"total" numeric(14, 2) DEFAULT '0' NOT NULL,
	"notes" text,
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
CREATE TABLE "finance_certified_documents" (
	"document_id" integer PRIMARY KEY NOT NULL,
	"certification_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "finance_document_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"document_id" integer NOT NULL,
	"position" smallint NOT NULL,
	"service_id" integer,
	"item_id" integer,
	"warehouse_id" integer,
	"account_id" integer,
	"descr" text NOT NULL,
	"quantity" numeric(14, 3) NOT NULL,
	"price" numeric(14, 4) DEFAULT '0' NOT NULL,
	"discount" numeric(5, 2) DEFAULT '0' NOT NULL,
	"vat_percent" numeric(5, 2) DEFAULT '0' NOT NULL,
	"net" numeric(14, 2) DEFAULT '0' NOT NULL,
	"vat" numeric(14, 2) DEFAULT '0' NOT NULL,
	"total" numeric(14, 2) DEFAULT '0' NOT NULL,
	CONSTRAINT "finance_document_lines_one_kind" CHECK (("finance_document_lines"."service_id" IS NULL) <> ("finance_document_lines"."item_id" IS NULL))
);
--> statement-breakpoint
CREATE TABLE "finance_document_taxes" (
	"id" serial PRIMARY KEY NOT NULL,
	"document_id" integer NOT NULL,
	"kind" smallint NOT NULL,
	"percent" numeric(7, 4),
	"amount" numeric(14, 2) DEFAULT '0' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "finance_documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"series_id" integer NOT NULL,
	"number" integer,
	"year" integer,
	"date" date NOT NULL,
	"trader_id" integer,
	"payment_method" smallint DEFAULT 3 NOT NULL,
	"entry_state" smallint DEFAULT 0 NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"related_document_id" integer,
	"transformed_into_id" integer,
	"net" numeric(14, 2) DEFAULT '0' NOT NULL,
	"discount" numeric(14, 2) DEFAULT '0' NOT NULL,
	"vat" numeric(14, 2) DEFAULT '0' NOT NULL,
	"gross" numeric(14, 2) DEFAULT '0' NOT NULL,
	"taxes_charged" numeric(14, 2) DEFAULT '0' NOT NULL,
	"withheld" numeric(14, 2) DEFAULT '0' NOT NULL,
	"payable" numeric(14, 2) DEFAULT '0' NOT NULL,
	"notes" text,
	"createuser" text,
	"createdate" timestamp with time zone DEFAULT now(),
	"updateuser" text,
	"updatedate" timestamp with time zone,
	"defuser" text,
	"defdate" timestamp with time zone,
	"changeuser" text,
	"changedate" timestamp with time zone,
	CONSTRAINT "finance_documents_numbered" CHECK (("finance_documents"."entry_state" = 9) = ("finance_documents"."number" IS NOT NULL))
);
--> statement-breakpoint
CREATE TABLE "finance_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"code" text NOT NULL,
	"descr" text NOT NULL,
	"barcode" text,
	"cpv" text,
	"unit" text,
	"purchase_price" numeric(14, 4) DEFAULT '0' NOT NULL,
	"sale_price" numeric(14, 4) DEFAULT '0' NOT NULL,
	"vat_percent" numeric(5, 2) DEFAULT '0' NOT NULL,
	"account_id" integer,
	"warehouse_id" integer,
	"group1" text,
	"group2" text,
	"group3" text,
	"group4" text,
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
CREATE TABLE "finance_series" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"code" text NOT NULL,
	"descr" text NOT NULL,
	"kind" text NOT NULL,
	"autonr" boolean DEFAULT true NOT NULL,
	"seqnr" integer DEFAULT 0 NOT NULL,
	"printype" smallint DEFAULT 0 NOT NULL,
	"copies" smallint DEFAULT 1 NOT NULL,
	"checkdates" boolean DEFAULT true NOT NULL,
	"relseqid" integer,
	"debit_credit" smallint DEFAULT 1 NOT NULL,
	"mydata_type" text,
	"moves_stock" boolean DEFAULT false NOT NULL,
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
CREATE TABLE "finance_series_counters" (
	"series_id" integer NOT NULL,
	"year" integer NOT NULL,
	"last" integer DEFAULT 0 NOT NULL,
	"last_date" date,
	CONSTRAINT "finance_series_counters_series_id_year_pk" PRIMARY KEY("series_id","year")
);
--> statement-breakpoint
CREATE TABLE "finance_services" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"code" text NOT NULL,
	"descr" text NOT NULL,
	"unit" text,
	"price" numeric(14, 4) DEFAULT '0' NOT NULL,
	"vat_percent" numeric(5, 2) DEFAULT '0' NOT NULL,
	"vat_category" smallint,
	"account_id" integer,
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
CREATE TABLE "finance_settings" (
	"company_id" integer PRIMARY KEY NOT NULL,
	"account_mask" text NOT NULL,
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
CREATE TABLE "finance_stock_moves" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"item_id" integer NOT NULL,
	"warehouse_id" integer NOT NULL,
	"document_id" integer NOT NULL,
	"quantity" numeric(14, 3) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "finance_warehouses" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"code" text NOT NULL,
	"descr" text NOT NULL,
	"type" smallint DEFAULT 1 NOT NULL,
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
ALTER TABLE "finance_accounts" ADD CONSTRAINT "finance_accounts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_certification_counters" ADD CONSTRAINT "finance_certification_counters_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_certification_lines" ADD CONSTRAINT "finance_certification_lines_certification_id_finance_certifications_id_fk" FOREIGN KEY ("certification_id") REFERENCES "public"."finance_certifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_certification_lines" ADD CONSTRAINT "finance_certification_lines_account_id_finance_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."finance_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_certifications" ADD CONSTRAINT "finance_certifications_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_certified_documents" ADD CONSTRAINT "finance_certified_documents_document_id_finance_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."finance_documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_certified_documents" ADD CONSTRAINT "finance_certified_documents_certification_id_finance_certifications_id_fk" FOREIGN KEY ("certification_id") REFERENCES "public"."finance_certifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_document_lines" ADD CONSTRAINT "finance_document_lines_document_id_finance_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."finance_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_document_lines" ADD CONSTRAINT "finance_document_lines_service_id_finance_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."finance_services"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_document_lines" ADD CONSTRAINT "finance_document_lines_item_id_finance_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."finance_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_document_lines" ADD CONSTRAINT "finance_document_lines_warehouse_id_finance_warehouses_id_fk" FOREIGN KEY ("warehouse_id") REFERENCES "public"."finance_warehouses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_document_lines" ADD CONSTRAINT "finance_document_lines_account_id_finance_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."finance_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_document_taxes" ADD CONSTRAINT "finance_document_taxes_document_id_finance_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."finance_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_documents" ADD CONSTRAINT "finance_documents_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_documents" ADD CONSTRAINT "finance_documents_series_id_finance_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."finance_series"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_documents" ADD CONSTRAINT "finance_documents_trader_id_traders_id_fk" FOREIGN KEY ("trader_id") REFERENCES "public"."traders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_documents" ADD CONSTRAINT "finance_documents_related_document_id_finance_documents_id_fk" FOREIGN KEY ("related_document_id") REFERENCES "public"."finance_documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_documents" ADD CONSTRAINT "finance_documents_transformed_into_id_finance_documents_id_fk" FOREIGN KEY ("transformed_into_id") REFERENCES "public"."finance_documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_items" ADD CONSTRAINT "finance_items_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_items" ADD CONSTRAINT "finance_items_account_id_finance_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."finance_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_items" ADD CONSTRAINT "finance_items_warehouse_id_finance_warehouses_id_fk" FOREIGN KEY ("warehouse_id") REFERENCES "public"."finance_warehouses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_series" ADD CONSTRAINT "finance_series_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_series" ADD CONSTRAINT "finance_series_relseqid_finance_series_id_fk" FOREIGN KEY ("relseqid") REFERENCES "public"."finance_series"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_series_counters" ADD CONSTRAINT "finance_series_counters_series_id_finance_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."finance_series"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_services" ADD CONSTRAINT "finance_services_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_services" ADD CONSTRAINT "finance_services_account_id_finance_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."finance_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_settings" ADD CONSTRAINT "finance_settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_stock_moves" ADD CONSTRAINT "finance_stock_moves_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_stock_moves" ADD CONSTRAINT "finance_stock_moves_item_id_finance_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."finance_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_stock_moves" ADD CONSTRAINT "finance_stock_moves_warehouse_id_finance_warehouses_id_fk" FOREIGN KEY ("warehouse_id") REFERENCES "public"."finance_warehouses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_stock_moves" ADD CONSTRAINT "finance_stock_moves_document_id_finance_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."finance_documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_warehouses" ADD CONSTRAINT "finance_warehouses_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "finance_accounts_code_uq" ON "finance_accounts" USING btree ("company_id","code");--> statement-breakpoint
CREATE INDEX "finance_certification_lines_cert_idx" ON "finance_certification_lines" USING btree ("certification_id");--> statement-breakpoint
CREATE INDEX "finance_certifications_company_idx" ON "finance_certifications" USING btree ("company_id","date");--> statement-breakpoint
CREATE UNIQUE INDEX "finance_certifications_number_uq" ON "finance_certifications" USING btree ("company_id","year","number");--> statement-breakpoint
CREATE INDEX "finance_certified_documents_cert_idx" ON "finance_certified_documents" USING btree ("certification_id");--> statement-breakpoint
CREATE INDEX "finance_document_lines_document_idx" ON "finance_document_lines" USING btree ("document_id");--> statement-breakpoint
CREATE INDEX "finance_document_taxes_document_idx" ON "finance_document_taxes" USING btree ("document_id");--> statement-breakpoint
CREATE INDEX "finance_documents_company_idx" ON "finance_documents" USING btree ("company_id","date");--> statement-breakpoint
CREATE UNIQUE INDEX "finance_documents_number_uq" ON "finance_documents" USING btree ("series_id","year","number");--> statement-breakpoint
CREATE INDEX "finance_documents_trader_idx" ON "finance_documents" USING btree ("trader_id");--> statement-breakpoint
CREATE UNIQUE INDEX "finance_items_code_uq" ON "finance_items" USING btree ("company_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "finance_series_code_uq" ON "finance_series" USING btree ("company_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "finance_services_code_uq" ON "finance_services" USING btree ("company_id","code");--> statement-breakpoint
CREATE INDEX "finance_stock_moves_item_idx" ON "finance_stock_moves" USING btree ("item_id","warehouse_id");--> statement-breakpoint
CREATE UNIQUE INDEX "finance_warehouses_code_uq" ON "finance_warehouses" USING btree ("company_id","code");