CREATE TABLE "readout_smartville" (
	"company_id" integer PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"api_key" text NOT NULL,
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
ALTER TABLE "readout_smartville" ADD CONSTRAINT "readout_smartville_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;