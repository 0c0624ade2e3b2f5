CREATE TABLE "trader_banks" (
	"id" serial PRIMARY KEY NOT NULL,
	"trader_id" integer NOT NULL,
	"iban" text NOT NULL,
	"bic" text,
	"bank_id" integer,
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
CREATE TABLE "traders" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"tradercode" text,
	"vatnumber" text,
	"fullname" text,
	"firstname" text,
	"lastname" text,
	"fathername" text,
	"mothername" text,
	"job" text,
	"phones" text,
	"mobile" text,
	"email" text,
	"address" text,
	"city" text,
	"area" text,
	"zipcode" text,
	"doy" text,
	"country" text DEFAULT 'GR' NOT NULL,
	"vat_category_id" integer,
	"vat_status_id" integer,
	"kepyo" boolean DEFAULT false NOT NULL,
	"birthday" date,
	"idnumber" text,
	"individual" boolean DEFAULT true NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"custom_fields" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"vatnumber_norm" text GENERATED ALWAYS AS (norm_text(vatnumber)) STORED,
	"tradercode_norm" text GENERATED ALWAYS AS (norm_text(tradercode)) STORED,
	"fullname_norm" text GENERATED ALWAYS AS (norm_text(fullname)) STORED,
	"firstname_norm" text GENERATED ALWAYS AS (norm_text(firstname)) STORED,
	"lastname_norm" text GENERATED ALWAYS AS (norm_text(lastname)) STORED,
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
ALTER TABLE "trader_banks" ADD CONSTRAINT "trader_banks_trader_id_traders_id_fk" FOREIGN KEY ("trader_id") REFERENCES "public"."traders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trader_banks" ADD CONSTRAINT "trader_banks_bank_id_banks_id_fk" FOREIGN KEY ("bank_id") REFERENCES "public"."banks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "traders" ADD CONSTRAINT "traders_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "traders" ADD CONSTRAINT "traders_vat_category_id_vat_categories_id_fk" FOREIGN KEY ("vat_category_id") REFERENCES "public"."vat_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "traders" ADD CONSTRAINT "traders_vat_status_id_vat_statuses_id_fk" FOREIGN KEY ("vat_status_id") REFERENCES "public"."vat_statuses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trader_banks_trader_idx" ON "trader_banks" USING btree ("trader_id");--> statement-breakpoint
CREATE INDEX "traders_company_idx" ON "traders" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "traders_company_vatnumber_idx" ON "traders" USING btree ("company_id","vatnumber");--> statement-breakpoint
CREATE INDEX "traders_vatnumber_norm_trgm" ON "traders" USING gin ("vatnumber_norm" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "traders_tradercode_norm_trgm" ON "traders" USING gin ("tradercode_norm" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "traders_fullname_norm_trgm" ON "traders" USING gin ("fullname_norm" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "traders_firstname_norm_trgm" ON "traders" USING gin ("firstname_norm" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "traders_lastname_norm_trgm" ON "traders" USING gin ("lastname_norm" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "traders_fullname_norm_sort" ON "traders" USING btree ("fullname_norm","id");