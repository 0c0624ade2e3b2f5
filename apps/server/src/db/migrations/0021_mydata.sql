CREATE TABLE "mydata_settings" (
	"company_id" integer PRIMARY KEY NOT NULL,
	"environment" text DEFAULT 'test' NOT NULL,
	"test_url" text NOT NULL,
	"production_url" text NOT NULL,
	"branch" smallint DEFAULT 0 NOT NULL,
	"mappings" jsonb NOT NULL,
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
CREATE TABLE "mydata_transmissions" (
	"document_id" integer PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"state" text NOT NULL,
	"uid" text NOT NULL,
	"mark" text,
	"qr_url" text,
	"authentication_code" text,
	"cancellation_mark" text,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"reconcile_from" text DEFAULT '0' NOT NULL,
	"sent_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mydata_settings" ADD CONSTRAINT "mydata_settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mydata_transmissions" ADD CONSTRAINT "mydata_transmissions_document_id_finance_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."finance_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mydata_transmissions" ADD CONSTRAINT "mydata_transmissions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mydata_transmissions_state_idx" ON "mydata_transmissions" USING btree ("company_id","state");--> statement-breakpoint
CREATE UNIQUE INDEX "mydata_transmissions_mark_uq" ON "mydata_transmissions" USING btree ("company_id","mark");--> statement-breakpoint
CREATE INDEX "mydata_transmissions_uid_idx" ON "mydata_transmissions" USING btree ("uid");