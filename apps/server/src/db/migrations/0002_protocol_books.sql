CREATE TABLE "protocol_books" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"descr" text NOT NULL,
	"year" integer NOT NULL,
	"booktype" smallint NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
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
CREATE TABLE "user_meta" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"global" smallint DEFAULT 0 NOT NULL,
	"meta_key" text NOT NULL,
	"meta_value" text NOT NULL,
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
CREATE TABLE "user_meta_active" (
	"user_id" integer NOT NULL,
	"meta_key" text NOT NULL,
	"meta_id" integer NOT NULL,
	CONSTRAINT "user_meta_active_user_id_meta_key_pk" PRIMARY KEY("user_id","meta_key")
);
--> statement-breakpoint
ALTER TABLE "protocol_books" ADD CONSTRAINT "protocol_books_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_meta_active" ADD CONSTRAINT "user_meta_active_meta_id_user_meta_id_fk" FOREIGN KEY ("meta_id") REFERENCES "public"."user_meta"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "protocol_books_company_idx" ON "protocol_books" USING btree ("company_id","year");--> statement-breakpoint
CREATE INDEX "user_meta_key_idx" ON "user_meta" USING btree ("meta_key","user_id");--> statement-breakpoint
ALTER TABLE "protocol_books" ADD CONSTRAINT "protocol_books_type_year_unique" UNIQUE ("company_id", "booktype", "year") DEFERRABLE INITIALLY DEFERRED;
