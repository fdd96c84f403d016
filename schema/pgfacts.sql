-- The installed pgfacts schema, normalised: written by `make schema` from a fresh
-- install (tests/catalog.py); tests/test_schema_snapshot.py fails when it is stale.
-- A reading aid, not a script: the migrations and sql/ build the database.
-- Functions are listed by signature, without bodies (read those in sql/).

CREATE SCHEMA pgfacts AUTHORIZATION pgfacts_owner;
GRANT USAGE ON SCHEMA pgfacts TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_searcher, pgfacts_tuner;
COMMENT ON SCHEMA pgfacts IS 'pgfacts SQL API: functions, views and types agents and apps call';
CREATE SCHEMA pgfacts_g_ae27640452f3ac6307b1 AUTHORIZATION pgfacts_owner;
GRANT USAGE ON SCHEMA pgfacts_g_ae27640452f3ac6307b1 TO pgfacts_graph_reader;
COMMENT ON SCHEMA pgfacts_g_ae27640452f3ac6307b1 IS 'pgfacts: the AGE projection of one tenant''s graph (rebuilt from the graph tables)';
CREATE SCHEMA pgfacts_internal AUTHORIZATION pgfacts_owner;
GRANT USAGE ON SCHEMA pgfacts_internal TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;
GRANT USAGE, CREATE ON SCHEMA pgfacts_internal TO pgfacts_maintainer, pgfacts_searcher;
COMMENT ON SCHEMA pgfacts_internal IS 'pgfacts internal tables and helpers; not an API';

CREATE TABLE pgfacts_g_ae27640452f3ac6307b1._ag_label_edge (
    id ag_catalog.graphid DEFAULT ag_catalog._graphid((ag_catalog._label_id('pgfacts_g_ae27640452f3ac6307b1'::name, '_ag_label_edge'::name))::integer, nextval('pgfacts_g_ae27640452f3ac6307b1._ag_label_edge_id_seq'::regclass)) NOT NULL,
    start_id ag_catalog.graphid NOT NULL,
    end_id ag_catalog.graphid NOT NULL,
    properties ag_catalog.agtype DEFAULT ag_catalog.agtype_build_map() NOT NULL,
    CONSTRAINT _ag_label_edge_pkey PRIMARY KEY (id)
);
ALTER TABLE pgfacts_g_ae27640452f3ac6307b1._ag_label_edge OWNER TO pgfacts_owner;
GRANT SELECT ON TABLE pgfacts_g_ae27640452f3ac6307b1._ag_label_edge TO pgfacts_graph_reader;

CREATE SEQUENCE pgfacts_g_ae27640452f3ac6307b1._ag_label_edge_id_seq;
ALTER SEQUENCE pgfacts_g_ae27640452f3ac6307b1._ag_label_edge_id_seq OWNER TO pgfacts_owner;

CREATE TABLE pgfacts_g_ae27640452f3ac6307b1._ag_label_vertex (
    id ag_catalog.graphid DEFAULT ag_catalog._graphid((ag_catalog._label_id('pgfacts_g_ae27640452f3ac6307b1'::name, '_ag_label_vertex'::name))::integer, nextval('pgfacts_g_ae27640452f3ac6307b1._ag_label_vertex_id_seq'::regclass)) NOT NULL,
    properties ag_catalog.agtype DEFAULT ag_catalog.agtype_build_map() NOT NULL,
    CONSTRAINT _ag_label_vertex_pkey PRIMARY KEY (id)
);
ALTER TABLE pgfacts_g_ae27640452f3ac6307b1._ag_label_vertex OWNER TO pgfacts_owner;
GRANT SELECT ON TABLE pgfacts_g_ae27640452f3ac6307b1._ag_label_vertex TO pgfacts_graph_reader;

CREATE SEQUENCE pgfacts_g_ae27640452f3ac6307b1._ag_label_vertex_id_seq;
ALTER SEQUENCE pgfacts_g_ae27640452f3ac6307b1._ag_label_vertex_id_seq OWNER TO pgfacts_owner;

CREATE SEQUENCE pgfacts_g_ae27640452f3ac6307b1._label_id_seq;
ALTER SEQUENCE pgfacts_g_ae27640452f3ac6307b1._label_id_seq OWNER TO pgfacts_owner;

CREATE TABLE pgfacts_g_ae27640452f3ac6307b1.edge (
    id ag_catalog.graphid DEFAULT ag_catalog._graphid((ag_catalog._label_id('pgfacts_g_ae27640452f3ac6307b1'::name, 'edge'::name))::integer, nextval('pgfacts_g_ae27640452f3ac6307b1.edge_id_seq'::regclass)) NOT NULL,
    start_id ag_catalog.graphid NOT NULL,
    end_id ag_catalog.graphid NOT NULL,
    properties ag_catalog.agtype DEFAULT ag_catalog.agtype_build_map() NOT NULL
);
ALTER TABLE pgfacts_g_ae27640452f3ac6307b1.edge OWNER TO pgfacts_owner;
CREATE INDEX edge_end_idx ON pgfacts_g_ae27640452f3ac6307b1.edge USING btree (end_id);
CREATE UNIQUE INDEX edge_id_key ON pgfacts_g_ae27640452f3ac6307b1.edge USING btree (id);
CREATE INDEX edge_properties_idx ON pgfacts_g_ae27640452f3ac6307b1.edge USING gin (properties);
CREATE INDEX edge_start_idx ON pgfacts_g_ae27640452f3ac6307b1.edge USING btree (start_id);
GRANT SELECT ON TABLE pgfacts_g_ae27640452f3ac6307b1.edge TO pgfacts_graph_reader;

CREATE SEQUENCE pgfacts_g_ae27640452f3ac6307b1.edge_id_seq;
ALTER SEQUENCE pgfacts_g_ae27640452f3ac6307b1.edge_id_seq OWNER TO pgfacts_owner;

CREATE TABLE pgfacts_g_ae27640452f3ac6307b1.node (
    id ag_catalog.graphid DEFAULT ag_catalog._graphid((ag_catalog._label_id('pgfacts_g_ae27640452f3ac6307b1'::name, 'node'::name))::integer, nextval('pgfacts_g_ae27640452f3ac6307b1.node_id_seq'::regclass)) NOT NULL,
    properties ag_catalog.agtype DEFAULT ag_catalog.agtype_build_map() NOT NULL
);
ALTER TABLE pgfacts_g_ae27640452f3ac6307b1.node OWNER TO pgfacts_owner;
CREATE UNIQUE INDEX node_id_key ON pgfacts_g_ae27640452f3ac6307b1.node USING btree (id);
CREATE INDEX node_properties_idx ON pgfacts_g_ae27640452f3ac6307b1.node USING gin (properties);
GRANT SELECT ON TABLE pgfacts_g_ae27640452f3ac6307b1.node TO pgfacts_graph_reader;

CREATE SEQUENCE pgfacts_g_ae27640452f3ac6307b1.node_id_seq;
ALTER SEQUENCE pgfacts_g_ae27640452f3ac6307b1.node_id_seq OWNER TO pgfacts_owner;

CREATE TYPE pgfacts_internal.audit_entry AS (
    tenant text,
    at timestamp with time zone,
    operation text,
    target text,
    before jsonb,
    after jsonb
);
ALTER TYPE pgfacts_internal.audit_entry OWNER TO pgfacts_owner;

CREATE TABLE pgfacts_internal.audit_log (
    tenant text NOT NULL,
    audit_id bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
    at timestamp with time zone NOT NULL,
    operation text NOT NULL,
    target text NOT NULL,
    db_role text NOT NULL,
    session_id text,
    agent_id text,
    agent_kind text,
    before jsonb,
    after jsonb,
    CONSTRAINT audit_log_operation_shape CHECK (((operation ~ '^[a-z][a-z_]*$'::text) AND (octet_length(operation) <= 64))),
    CONSTRAINT audit_log_pkey PRIMARY KEY (tenant, audit_id)
);
ALTER TABLE pgfacts_internal.audit_log OWNER TO pgfacts_owner;
ALTER TABLE pgfacts_internal.audit_log ENABLE ROW LEVEL SECURITY;
ALTER TABLE pgfacts_internal.audit_log FORCE ROW LEVEL SECURITY;
CREATE INDEX audit_log_at_idx ON pgfacts_internal.audit_log USING btree (tenant, at);
CREATE INDEX audit_log_target_idx ON pgfacts_internal.audit_log USING btree (tenant, target);
CREATE POLICY tenant_isolation ON pgfacts_internal.audit_log AS PERMISSIVE FOR ALL TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner USING ((tenant = ( SELECT pgfacts_internal.context_tenant() AS context_tenant)));
CREATE POLICY tenant_isolation_api ON pgfacts_internal.audit_log AS PERMISSIVE FOR ALL TO pgfacts_owner USING ((tenant = ( SELECT current_setting('pgfacts.tenant'::text, true) AS current_setting)));
CREATE TRIGGER audit_log_append_only BEFORE DELETE OR UPDATE ON pgfacts_internal.audit_log FOR EACH ROW EXECUTE FUNCTION pgfacts_internal.audit_log_guard();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON pgfacts_internal.audit_log FOR EACH STATEMENT EXECUTE FUNCTION pgfacts_internal.audit_log_guard();
GRANT INSERT ON TABLE pgfacts_internal.audit_log TO pgfacts_maintainer;
GRANT SELECT ON TABLE pgfacts_internal.audit_log TO pgfacts_operator, pgfacts_tuner;
COMMENT ON TABLE pgfacts_internal.audit_log IS 'The mutation audit: one row per change to memory (who, when, operation, target, before and after, content as a sha256 digest only); append-only, read through audit()';

CREATE TYPE pgfacts_internal.claim_decision AS (
    outcome text,
    reason text,
    target integer,
    retire_reason text,
    valid tstzrange,
    copies tstzrange[],
    corroborates integer[],
    pieces tstzrange[]
);
ALTER TYPE pgfacts_internal.claim_decision OWNER TO pgfacts_owner;

CREATE TABLE pgfacts_internal.claim_gates (
    layer text NOT NULL,
    handler regprocedure NOT NULL,
    CONSTRAINT claim_gates_pkey PRIMARY KEY (layer)
);
ALTER TABLE pgfacts_internal.claim_gates OWNER TO pgfacts_owner;
COMMENT ON TABLE pgfacts_internal.claim_gates IS 'The claim gates later layers register (register_claim_gate): write_claims passes each non-replay episode''s checked claims through them, in layer order';

CREATE TYPE pgfacts_internal.claim_input AS (
    position integer,
    problem text,
    subject bigint,
    predicate text,
    cardinality text,
    object jsonb,
    object_entity bigint,
    text text,
    confidence real,
    valid_from timestamp with time zone,
    valid_to timestamp with time zone,
    locator jsonb,
    quote text,
    replaces bigint,
    assertion text,
    retracted boolean,
    slot integer
);
ALTER TYPE pgfacts_internal.claim_input OWNER TO pgfacts_owner;

CREATE TABLE pgfacts_internal.claim_sources (
    tenant text NOT NULL,
    claim_id bigint NOT NULL,
    episode_id bigint NOT NULL,
    locator jsonb,
    quote text,
    asserted_valid tstzmultirange NOT NULL,
    CONSTRAINT claim_sources_claim_fkey FOREIGN KEY (tenant, claim_id) REFERENCES pgfacts_internal.claims(tenant, claim_id) ON DELETE CASCADE,
    CONSTRAINT claim_sources_episode_fkey FOREIGN KEY (tenant, episode_id) REFERENCES pgfacts_internal.episodes(tenant, episode_id) ON DELETE CASCADE,
    CONSTRAINT claim_sources_pkey PRIMARY KEY (tenant, claim_id, episode_id)
);
ALTER TABLE pgfacts_internal.claim_sources OWNER TO pgfacts_owner;
ALTER TABLE pgfacts_internal.claim_sources ENABLE ROW LEVEL SECURITY;
ALTER TABLE pgfacts_internal.claim_sources FORCE ROW LEVEL SECURITY;
CREATE INDEX claim_sources_episode_idx ON pgfacts_internal.claim_sources USING btree (episode_id, tenant);
CREATE POLICY tenant_isolation ON pgfacts_internal.claim_sources AS PERMISSIVE FOR ALL TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner USING ((tenant = ( SELECT pgfacts_internal.context_tenant() AS context_tenant)));
CREATE POLICY tenant_isolation_api ON pgfacts_internal.claim_sources AS PERMISSIVE FOR ALL TO pgfacts_owner USING ((tenant = ( SELECT current_setting('pgfacts.tenant'::text, true) AS current_setting)));
CREATE TRIGGER claim_sources_audit_added AFTER INSERT ON pgfacts_internal.claim_sources REFERENCING NEW TABLE AS added_sources FOR EACH STATEMENT EXECUTE FUNCTION pgfacts_internal.audit_sources_added();
CREATE TRIGGER claim_sources_incognito BEFORE INSERT OR DELETE OR UPDATE ON pgfacts_internal.claim_sources FOR EACH STATEMENT WHEN ((pgfacts_internal.context_memory_scope() = 'none'::text)) EXECUTE FUNCTION pgfacts_internal.refuse_incognito_write();
GRANT SELECT ON TABLE pgfacts_internal.claim_sources TO pgfacts_operator, pgfacts_tuner;
COMMENT ON TABLE pgfacts_internal.claim_sources IS 'The episodes (with locator and quote) that support each claim';

CREATE TABLE pgfacts_internal.claims (
    tenant text NOT NULL,
    claim_id bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
    subject_id bigint NOT NULL,
    predicate text NOT NULL,
    cardinality text NOT NULL,
    object_value jsonb,
    object_entity_id bigint,
    text text,
    confidence real NOT NULL,
    assertion text NOT NULL,
    valid tstzrange NOT NULL,
    system_time tstzrange NOT NULL,
    retired_reason text,
    superseded_by bigint,
    copied_from bigint,
    search_doc tsvector,
    expires_at timestamp with time zone,
    CONSTRAINT claims_confidence_range CHECK (((confidence >= (0)::double precision) AND (confidence <= (1)::double precision))),
    CONSTRAINT claims_object_entity_fkey FOREIGN KEY (tenant, object_entity_id) REFERENCES pgfacts_internal.entities(tenant, entity_id),
    CONSTRAINT claims_object_present CHECK (((object_value IS NOT NULL) OR (object_entity_id IS NOT NULL))),
    CONSTRAINT claims_one_live_value EXCLUDE USING gist (tenant WITH =, subject_id WITH =, predicate WITH =, valid WITH &&) WHERE (((cardinality = 'one'::text) AND (retired_reason IS NULL))),
    CONSTRAINT claims_pkey PRIMARY KEY (tenant, claim_id),
    CONSTRAINT claims_predicate_fkey FOREIGN KEY (tenant, predicate) REFERENCES pgfacts_internal.predicates(tenant, name),
    CONSTRAINT claims_retired_reason_check CHECK ((retired_reason = ANY (ARRAY['superseded'::text, 'replaced'::text, 'retracted'::text, 'source_changed'::text, 'outranked'::text]))),
    CONSTRAINT claims_retired_shape CHECK (((retired_reason IS NULL) = upper_inf(system_time))),
    CONSTRAINT claims_subject_fkey FOREIGN KEY (tenant, subject_id) REFERENCES pgfacts_internal.entities(tenant, entity_id),
    CONSTRAINT claims_system_time_not_empty CHECK ((NOT isempty(system_time))),
    CONSTRAINT claims_valid_not_empty CHECK ((NOT isempty(valid)))
) WITH (fillfactor=95);
ALTER TABLE pgfacts_internal.claims OWNER TO pgfacts_owner;
ALTER TABLE pgfacts_internal.claims ENABLE ROW LEVEL SECURITY;
ALTER TABLE pgfacts_internal.claims FORCE ROW LEVEL SECURITY;
CREATE INDEX claims_object_entity_idx ON pgfacts_internal.claims USING btree (tenant, object_entity_id) WHERE (object_entity_id IS NOT NULL);
CREATE INDEX claims_search_doc_idx ON pgfacts_internal.claims USING gin (tenant COLLATE "C", search_doc);
CREATE INDEX claims_slot_versions_idx ON pgfacts_internal.claims USING btree (tenant, subject_id, predicate);
CREATE POLICY tenant_isolation ON pgfacts_internal.claims AS PERMISSIVE FOR ALL TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner USING ((tenant = ( SELECT pgfacts_internal.context_tenant() AS context_tenant)));
CREATE POLICY tenant_isolation_api ON pgfacts_internal.claims AS PERMISSIVE FOR ALL TO pgfacts_owner USING ((tenant = ( SELECT current_setting('pgfacts.tenant'::text, true) AS current_setting)));
CREATE TRIGGER claims_audit_moved AFTER UPDATE ON pgfacts_internal.claims REFERENCING OLD TABLE AS moved_old NEW TABLE AS moved_new FOR EACH STATEMENT EXECUTE FUNCTION pgfacts_internal.audit_claims_moved();
CREATE TRIGGER claims_incognito BEFORE INSERT OR DELETE OR UPDATE ON pgfacts_internal.claims FOR EACH STATEMENT WHEN ((pgfacts_internal.context_memory_scope() = 'none'::text)) EXECUTE FUNCTION pgfacts_internal.refuse_incognito_write();
CREATE TRIGGER claims_queue_embedding AFTER INSERT OR DELETE ON pgfacts_internal.claims FOR EACH ROW EXECUTE FUNCTION pgfacts_internal.queue_claim_embedding();
CREATE TRIGGER claims_set_search_doc BEFORE INSERT ON pgfacts_internal.claims FOR EACH ROW EXECUTE FUNCTION pgfacts_internal.claims_set_search_doc();
GRANT SELECT ON TABLE pgfacts_internal.claims TO pgfacts_operator, pgfacts_searcher, pgfacts_tuner;
COMMENT ON TABLE pgfacts_internal.claims IS 'Bi-temporal claims: never edited, only retired (system time closed) with a reason';

CREATE TABLE pgfacts_internal.embedding_models (
    tenant text NOT NULL,
    model text NOT NULL,
    dimension integer NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT embedding_models_dimension_range CHECK (((dimension >= 1) AND (dimension <= 4000))),
    CONSTRAINT embedding_models_name_shape CHECK ((((length(model) >= 1) AND (length(model) <= 200)) AND (model !~ '[[:cntrl:]]'::text))),
    CONSTRAINT embedding_models_pkey PRIMARY KEY (tenant, model)
);
ALTER TABLE pgfacts_internal.embedding_models OWNER TO pgfacts_owner;
ALTER TABLE pgfacts_internal.embedding_models ENABLE ROW LEVEL SECURITY;
ALTER TABLE pgfacts_internal.embedding_models FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON pgfacts_internal.embedding_models AS PERMISSIVE FOR ALL TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner USING ((tenant = ( SELECT pgfacts_internal.context_tenant() AS context_tenant)));
CREATE POLICY tenant_isolation_api ON pgfacts_internal.embedding_models AS PERMISSIVE FOR ALL TO pgfacts_owner USING ((tenant = ( SELECT current_setting('pgfacts.tenant'::text, true) AS current_setting)));
CREATE TRIGGER embedding_models_audit_registered AFTER INSERT ON pgfacts_internal.embedding_models FOR EACH ROW EXECUTE FUNCTION pgfacts_internal.audit_model_registered();
CREATE TRIGGER embedding_models_incognito BEFORE INSERT OR DELETE OR UPDATE ON pgfacts_internal.embedding_models FOR EACH STATEMENT WHEN ((pgfacts_internal.context_memory_scope() = 'none'::text)) EXECUTE FUNCTION pgfacts_internal.refuse_incognito_write();
GRANT SELECT ON TABLE pgfacts_internal.embedding_models TO pgfacts_maintainer, pgfacts_operator, pgfacts_tuner;
COMMENT ON TABLE pgfacts_internal.embedding_models IS 'Embedding models a tenant uses, each with its dimension';

CREATE TABLE pgfacts_internal.embedding_queue (
    tenant text NOT NULL,
    item_kind text NOT NULL,
    item_id bigint NOT NULL,
    content_hash text NOT NULL,
    enqueued_at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    retry boolean DEFAULT false NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    error_code integer,
    failed_at timestamp with time zone,
    CONSTRAINT embedding_queue_error_code_check CHECK ((error_code = ANY (ARRAY[1001, 1400, 1401, 1403, 1429, 1500, 1901, 9999]))),
    CONSTRAINT embedding_queue_item_kind_check CHECK ((item_kind = ANY (ARRAY['fact'::text, 'claim'::text]))),
    CONSTRAINT embedding_queue_pkey PRIMARY KEY (tenant, item_kind, item_id)
);
ALTER TABLE pgfacts_internal.embedding_queue OWNER TO pgfacts_owner;
ALTER TABLE pgfacts_internal.embedding_queue ENABLE ROW LEVEL SECURITY;
ALTER TABLE pgfacts_internal.embedding_queue FORCE ROW LEVEL SECURITY;
CREATE INDEX embedding_queue_work_idx ON pgfacts_internal.embedding_queue USING btree (tenant, retry DESC, enqueued_at) WHERE (error_code IS NULL);
CREATE POLICY tenant_isolation ON pgfacts_internal.embedding_queue AS PERMISSIVE FOR ALL TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner USING ((tenant = ( SELECT pgfacts_internal.context_tenant() AS context_tenant)));
CREATE POLICY tenant_isolation_api ON pgfacts_internal.embedding_queue AS PERMISSIVE FOR ALL TO pgfacts_owner USING ((tenant = ( SELECT current_setting('pgfacts.tenant'::text, true) AS current_setting)));
GRANT SELECT ON TABLE pgfacts_internal.embedding_queue TO pgfacts_maintainer, pgfacts_operator, pgfacts_tuner;
COMMENT ON TABLE pgfacts_internal.embedding_queue IS 'Facts and claims waiting to be embedded; retry and error_code are embedder state';

CREATE TABLE pgfacts_internal.embeddings (
    tenant text NOT NULL,
    model text NOT NULL,
    item_kind text NOT NULL,
    item_id bigint NOT NULL,
    dimension integer NOT NULL,
    content_hash text NOT NULL,
    embedding halfvec NOT NULL,
    embedded_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT embeddings_dimension_matches CHECK ((vector_dims(embedding) = dimension)),
    CONSTRAINT embeddings_item_kind_check CHECK ((item_kind = ANY (ARRAY['fact'::text, 'claim'::text]))),
    CONSTRAINT embeddings_model_fkey FOREIGN KEY (tenant, model) REFERENCES pgfacts_internal.embedding_models(tenant, model) ON DELETE CASCADE,
    CONSTRAINT embeddings_pkey PRIMARY KEY (tenant, model, item_kind, item_id)
);
ALTER TABLE pgfacts_internal.embeddings OWNER TO pgfacts_owner;
ALTER TABLE pgfacts_internal.embeddings ENABLE ROW LEVEL SECURITY;
ALTER TABLE pgfacts_internal.embeddings FORCE ROW LEVEL SECURITY;
CREATE INDEX embeddings_hnsw_1024 ON pgfacts_internal.embeddings USING hnsw (((embedding)::halfvec(1024)) halfvec_cosine_ops) WITH (ef_construction='128') WHERE (dimension = 1024);
CREATE INDEX embeddings_hnsw_1536 ON pgfacts_internal.embeddings USING hnsw (((embedding)::halfvec(1536)) halfvec_cosine_ops) WITH (ef_construction='128') WHERE (dimension = 1536);
CREATE INDEX embeddings_hnsw_384 ON pgfacts_internal.embeddings USING hnsw (((embedding)::halfvec(384)) halfvec_cosine_ops) WITH (ef_construction='128') WHERE (dimension = 384);
CREATE INDEX embeddings_hnsw_768 ON pgfacts_internal.embeddings USING hnsw (((embedding)::halfvec(768)) halfvec_cosine_ops) WITH (ef_construction='128') WHERE (dimension = 768);
CREATE POLICY tenant_isolation ON pgfacts_internal.embeddings AS PERMISSIVE FOR ALL TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner USING ((tenant = ( SELECT pgfacts_internal.context_tenant() AS context_tenant)));
CREATE POLICY tenant_isolation_api ON pgfacts_internal.embeddings AS PERMISSIVE FOR ALL TO pgfacts_owner USING ((tenant = ( SELECT current_setting('pgfacts.tenant'::text, true) AS current_setting)));
CREATE TRIGGER embeddings_incognito BEFORE INSERT OR DELETE OR UPDATE ON pgfacts_internal.embeddings FOR EACH STATEMENT WHEN ((pgfacts_internal.context_memory_scope() = 'none'::text)) EXECUTE FUNCTION pgfacts_internal.refuse_incognito_write();
CREATE TRIGGER embeddings_keep_replaced_fact_vector BEFORE UPDATE ON pgfacts_internal.embeddings FOR EACH ROW WHEN (((old.item_kind = 'fact'::text) AND (old.content_hash IS DISTINCT FROM new.content_hash))) EXECUTE FUNCTION pgfacts_internal.keep_replaced_fact_vector();
GRANT SELECT ON TABLE pgfacts_internal.embeddings TO pgfacts_operator, pgfacts_searcher, pgfacts_tuner;
COMMENT ON TABLE pgfacts_internal.embeddings IS 'One embedding per (fact or claim, model), halfvec, with the hash of the text embedded';

CREATE TABLE pgfacts_internal.entities (
    tenant text NOT NULL,
    entity_id bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
    kind text NOT NULL,
    name text NOT NULL,
    aliases text[] DEFAULT '{}'::text[] NOT NULL,
    external_ref text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT entities_external_ref_key UNIQUE (external_ref, tenant),
    CONSTRAINT entities_pkey PRIMARY KEY (tenant, entity_id),
    CONSTRAINT entities_shape CHECK ((((length(kind) >= 1) AND (length(kind) <= 100)) AND ((length(name) >= 1) AND (length(name) <= 500))))
);
ALTER TABLE pgfacts_internal.entities OWNER TO pgfacts_owner;
ALTER TABLE pgfacts_internal.entities ENABLE ROW LEVEL SECURITY;
ALTER TABLE pgfacts_internal.entities FORCE ROW LEVEL SECURITY;
CREATE INDEX entities_aliases_idx ON pgfacts_internal.entities USING gin (aliases);
CREATE INDEX entities_name_idx ON pgfacts_internal.entities USING btree (lower(name), kind, tenant);
CREATE INDEX entities_names_idx ON pgfacts_internal.entities USING btree (lower(name), tenant COLLATE "C");
CREATE POLICY tenant_isolation ON pgfacts_internal.entities AS PERMISSIVE FOR ALL TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner USING ((tenant = ( SELECT pgfacts_internal.context_tenant() AS context_tenant)));
CREATE POLICY tenant_isolation_api ON pgfacts_internal.entities AS PERMISSIVE FOR ALL TO pgfacts_owner USING ((tenant = ( SELECT current_setting('pgfacts.tenant'::text, true) AS current_setting)));
CREATE TRIGGER entities_incognito BEFORE INSERT OR DELETE OR UPDATE ON pgfacts_internal.entities FOR EACH STATEMENT WHEN ((pgfacts_internal.context_memory_scope() = 'none'::text)) EXECUTE FUNCTION pgfacts_internal.refuse_incognito_write();
CREATE TRIGGER entities_redaction AFTER INSERT OR UPDATE OF name, aliases ON pgfacts_internal.entities FOR EACH ROW EXECUTE FUNCTION pgfacts_internal.refuse_redacted_names();
CREATE TRIGGER entities_refresh_claim_documents AFTER UPDATE OF name, aliases ON pgfacts_internal.entities FOR EACH ROW WHEN (((old.name IS DISTINCT FROM new.name) OR (old.aliases IS DISTINCT FROM new.aliases))) EXECUTE FUNCTION pgfacts_internal.entity_refresh_claim_documents();
GRANT SELECT ON TABLE pgfacts_internal.entities TO pgfacts_operator, pgfacts_searcher, pgfacts_tuner;
COMMENT ON TABLE pgfacts_internal.entities IS 'Things claims are about (people, services, ...)';

CREATE TYPE pgfacts_internal.episode_claim AS (
    position integer,
    subject bigint,
    predicate text,
    object jsonb,
    object_entity bigint,
    text text,
    confidence real,
    valid_from timestamp with time zone,
    valid_to timestamp with time zone,
    locator jsonb,
    quote text,
    replaces_assertion text,
    replaces_valid tstzrange
);
ALTER TYPE pgfacts_internal.episode_claim OWNER TO pgfacts_owner;

CREATE TABLE pgfacts_internal.episodes (
    tenant text NOT NULL,
    episode_id bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
    source_kind text NOT NULL,
    source_ref text NOT NULL,
    content_hash text NOT NULL,
    occurred_at timestamp with time zone,
    trust text NOT NULL,
    extractor text,
    recorded_at timestamp with time zone DEFAULT now() NOT NULL,
    written pgfacts_internal.episode_claim[],
    written_at timestamp with time zone,
    event_seq bigint,
    expires_at timestamp with time zone,
    CONSTRAINT episodes_pkey PRIMARY KEY (tenant, episode_id),
    CONSTRAINT episodes_source_key UNIQUE (source_ref, source_kind, content_hash, tenant),
    CONSTRAINT episodes_trust_check CHECK ((trust = ANY (ARRAY['operator'::text, 'owner'::text, 'agent'::text, 'third_party'::text])))
);
ALTER TABLE pgfacts_internal.episodes OWNER TO pgfacts_owner;
ALTER TABLE pgfacts_internal.episodes ENABLE ROW LEVEL SECURITY;
ALTER TABLE pgfacts_internal.episodes FORCE ROW LEVEL SECURITY;
CREATE INDEX episodes_expiry_idx ON pgfacts_internal.episodes USING btree (tenant, expires_at) WHERE (expires_at IS NOT NULL);
CREATE POLICY tenant_isolation ON pgfacts_internal.episodes AS PERMISSIVE FOR ALL TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner USING ((tenant = ( SELECT pgfacts_internal.context_tenant() AS context_tenant)));
CREATE POLICY tenant_isolation_api ON pgfacts_internal.episodes AS PERMISSIVE FOR ALL TO pgfacts_owner USING ((tenant = ( SELECT current_setting('pgfacts.tenant'::text, true) AS current_setting)));
CREATE TRIGGER episodes_audit_committed AFTER UPDATE OF written_at ON pgfacts_internal.episodes FOR EACH ROW EXECUTE FUNCTION pgfacts_internal.audit_episode_committed();
CREATE TRIGGER episodes_incognito BEFORE INSERT OR DELETE OR UPDATE ON pgfacts_internal.episodes FOR EACH STATEMENT WHEN ((pgfacts_internal.context_memory_scope() = 'none'::text)) EXECUTE FUNCTION pgfacts_internal.refuse_incognito_write();
CREATE TRIGGER episodes_redaction AFTER INSERT ON pgfacts_internal.episodes FOR EACH ROW EXECUTE FUNCTION pgfacts_internal.refuse_redacted_episode();
GRANT SELECT ON TABLE pgfacts_internal.episodes TO pgfacts_maintainer, pgfacts_operator, pgfacts_tuner;
COMMENT ON TABLE pgfacts_internal.episodes IS 'Where claims come from: one version (content hash) of one source, with its trust';

CREATE TABLE pgfacts_internal.extraction_events (
    tenant text NOT NULL,
    event_id bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
    memory_id bigint NOT NULL,
    state text DEFAULT 'ready'::text NOT NULL,
    due_at timestamp with time zone DEFAULT now() NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    lease_token uuid,
    leased_by text,
    error_code integer,
    last_error text,
    episode_id bigint,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    finished_at timestamp with time zone,
    CONSTRAINT extraction_events_lease_check CHECK (((state = 'leased'::text) = (lease_token IS NOT NULL))),
    CONSTRAINT extraction_events_memory_fkey FOREIGN KEY (tenant, memory_id) REFERENCES pgfacts_internal.memories(tenant, memory_id),
    CONSTRAINT extraction_events_pkey PRIMARY KEY (tenant, event_id),
    CONSTRAINT extraction_events_state_check CHECK ((state = ANY (ARRAY['ready'::text, 'leased'::text, 'done'::text, 'failed'::text])))
);
ALTER TABLE pgfacts_internal.extraction_events OWNER TO pgfacts_owner;
ALTER TABLE pgfacts_internal.extraction_events ENABLE ROW LEVEL SECURITY;
ALTER TABLE pgfacts_internal.extraction_events FORCE ROW LEVEL SECURITY;
CREATE INDEX extraction_events_due_idx ON pgfacts_internal.extraction_events USING btree (tenant, due_at) WHERE (state = ANY (ARRAY['ready'::text, 'leased'::text]));
CREATE INDEX extraction_events_memory_idx ON pgfacts_internal.extraction_events USING btree (tenant, memory_id);
CREATE UNIQUE INDEX extraction_events_one_open_idx ON pgfacts_internal.extraction_events USING btree (tenant, memory_id) WHERE (state = ANY (ARRAY['ready'::text, 'leased'::text]));
CREATE POLICY tenant_isolation ON pgfacts_internal.extraction_events AS PERMISSIVE FOR ALL TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner USING ((tenant = ( SELECT pgfacts_internal.context_tenant() AS context_tenant)));
CREATE POLICY tenant_isolation_api ON pgfacts_internal.extraction_events AS PERMISSIVE FOR ALL TO pgfacts_owner USING ((tenant = ( SELECT current_setting('pgfacts.tenant'::text, true) AS current_setting)));
CREATE TRIGGER extraction_events_incognito BEFORE INSERT OR DELETE OR UPDATE ON pgfacts_internal.extraction_events FOR EACH STATEMENT WHEN ((pgfacts_internal.context_memory_scope() = 'none'::text)) EXECUTE FUNCTION pgfacts_internal.refuse_incognito_write();
GRANT SELECT ON TABLE pgfacts_internal.extraction_events TO pgfacts_maintainer;
COMMENT ON TABLE pgfacts_internal.extraction_events IS 'The outbox: one FACT_EXTRACT event per memory to extract, ready, leased, done or failed';

CREATE TABLE pgfacts_internal.fact_purges (
    tenant text NOT NULL,
    history_until timestamp with time zone NOT NULL,
    CONSTRAINT fact_purges_pkey PRIMARY KEY (tenant)
);
ALTER TABLE pgfacts_internal.fact_purges OWNER TO pgfacts_owner;
ALTER TABLE pgfacts_internal.fact_purges ENABLE ROW LEVEL SECURITY;
ALTER TABLE pgfacts_internal.fact_purges FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON pgfacts_internal.fact_purges AS PERMISSIVE FOR ALL TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner USING ((tenant = ( SELECT pgfacts_internal.context_tenant() AS context_tenant)));
CREATE POLICY tenant_isolation_api ON pgfacts_internal.fact_purges AS PERMISSIVE FOR ALL TO pgfacts_owner USING ((tenant = ( SELECT current_setting('pgfacts.tenant'::text, true) AS current_setting)));
GRANT SELECT, INSERT, UPDATE ON TABLE pgfacts_internal.fact_purges TO pgfacts_maintainer;
COMMENT ON TABLE pgfacts_internal.fact_purges IS 'Per tenant, the latest instant up to which a purge (or a key change) archived the history of a scope key that has no current row';

CREATE TABLE pgfacts_internal.fact_usage (
    tenant text NOT NULL,
    fact_id bigint NOT NULL,
    last_used_at timestamp with time zone NOT NULL,
    use_count bigint NOT NULL,
    CONSTRAINT fact_usage_count_positive CHECK ((use_count > 0)),
    CONSTRAINT fact_usage_fact_fkey FOREIGN KEY (tenant, fact_id) REFERENCES pgfacts_internal.facts(tenant, fact_id) ON DELETE CASCADE,
    CONSTRAINT fact_usage_pkey PRIMARY KEY (tenant, fact_id)
);
ALTER TABLE pgfacts_internal.fact_usage OWNER TO pgfacts_owner;
ALTER TABLE pgfacts_internal.fact_usage ENABLE ROW LEVEL SECURITY;
ALTER TABLE pgfacts_internal.fact_usage FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON pgfacts_internal.fact_usage AS PERMISSIVE FOR ALL TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner USING ((tenant = ( SELECT pgfacts_internal.context_tenant() AS context_tenant)));
CREATE POLICY tenant_isolation_api ON pgfacts_internal.fact_usage AS PERMISSIVE FOR ALL TO pgfacts_owner USING ((tenant = ( SELECT current_setting('pgfacts.tenant'::text, true) AS current_setting)));
GRANT SELECT ON TABLE pgfacts_internal.fact_usage TO pgfacts_operator, pgfacts_tuner;
GRANT SELECT, INSERT, UPDATE ON TABLE pgfacts_internal.fact_usage TO pgfacts_maintainer;
COMMENT ON TABLE pgfacts_internal.fact_usage IS 'Each used fact''s last use and use count, folded from fact_uses by maintenance.';

CREATE TABLE pgfacts_internal.fact_uses (
    tenant text NOT NULL,
    fact_id bigint NOT NULL,
    used_at timestamp with time zone NOT NULL
);
ALTER TABLE pgfacts_internal.fact_uses OWNER TO pgfacts_owner;
ALTER TABLE pgfacts_internal.fact_uses ENABLE ROW LEVEL SECURITY;
ALTER TABLE pgfacts_internal.fact_uses FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON pgfacts_internal.fact_uses AS PERMISSIVE FOR ALL TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner USING ((tenant = ( SELECT pgfacts_internal.context_tenant() AS context_tenant)));
CREATE POLICY tenant_isolation_api ON pgfacts_internal.fact_uses AS PERMISSIVE FOR ALL TO pgfacts_owner USING ((tenant = ( SELECT current_setting('pgfacts.tenant'::text, true) AS current_setting)));
GRANT SELECT, DELETE ON TABLE pgfacts_internal.fact_uses TO pgfacts_maintainer;
COMMENT ON TABLE pgfacts_internal.fact_uses IS 'Uses of facts not yet folded into fact_usage: one row per fact a read surfaced (unlogged).';

CREATE TABLE pgfacts_internal.fact_versions (
    tenant text NOT NULL,
    fact_id bigint NOT NULL,
    version_id bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
    scope_key text NOT NULL,
    key text NOT NULL,
    value jsonb NOT NULL,
    shared boolean NOT NULL,
    session_id text,
    agent_id text,
    tags text[] NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    deleted_at timestamp with time zone,
    etag bigint NOT NULL,
    system_time tstzrange NOT NULL,
    CONSTRAINT fact_versions_closed CHECK (((NOT isempty(system_time)) AND (NOT upper_inf(system_time)))),
    CONSTRAINT fact_versions_no_overlap EXCLUDE USING gist (tenant WITH =, scope_key WITH =, system_time WITH &&),
    CONSTRAINT fact_versions_pkey PRIMARY KEY (tenant, version_id)
);
ALTER TABLE pgfacts_internal.fact_versions OWNER TO pgfacts_owner;
ALTER TABLE pgfacts_internal.fact_versions ENABLE ROW LEVEL SECURITY;
ALTER TABLE pgfacts_internal.fact_versions FORCE ROW LEVEL SECURITY;
CREATE POLICY readable_keys ON pgfacts_internal.fact_versions AS RESTRICTIVE FOR SELECT TO pgfacts_operator, pgfacts_tuner USING (pgfacts_internal.readable_by(key, ( SELECT pgfacts_internal.context_kind() AS context_kind)));
CREATE POLICY tenant_isolation ON pgfacts_internal.fact_versions AS PERMISSIVE FOR ALL TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner USING ((tenant = ( SELECT pgfacts_internal.context_tenant() AS context_tenant)));
CREATE POLICY tenant_isolation_api ON pgfacts_internal.fact_versions AS PERMISSIVE FOR ALL TO pgfacts_owner USING ((tenant = ( SELECT current_setting('pgfacts.tenant'::text, true) AS current_setting)));
GRANT SELECT ON TABLE pgfacts_internal.fact_versions TO pgfacts_operator, pgfacts_searcher, pgfacts_tuner;
GRANT SELECT, INSERT ON TABLE pgfacts_internal.fact_versions TO pgfacts_maintainer;
COMMENT ON TABLE pgfacts_internal.fact_versions IS 'Earlier versions of working-memory facts, each with the system-time range it was current';

CREATE TABLE pgfacts_internal.facts (
    tenant text NOT NULL,
    fact_id bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
    scope_key text NOT NULL,
    key text NOT NULL,
    value jsonb NOT NULL,
    shared boolean NOT NULL,
    session_id text,
    agent_id text,
    owner_session_id text,
    owner_agent_id text,
    tags text[] DEFAULT '{}'::text[] NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    deleted_at timestamp with time zone,
    etag bigint NOT NULL,
    last_crawled_at timestamp with time zone,
    system_time tstzrange NOT NULL,
    writer_kind text,
    search_doc tsvector,
    expires_at timestamp with time zone,
    CONSTRAINT facts_etag_positive CHECK ((etag > 0)),
    CONSTRAINT facts_key_length CHECK ((((length(key) >= 1) AND (length(key) <= 512)) AND (octet_length(key) <= 1024))),
    CONSTRAINT facts_pkey PRIMARY KEY (tenant, fact_id),
    CONSTRAINT facts_scope_shape CHECK (((shared AND (scope_key = ('shared:'::text || key))) OR ((NOT shared) AND (session_id IS NOT NULL) AND (scope_key = ((('session:'::text || session_id) || ':'::text) || key))))),
    CONSTRAINT facts_system_time_current CHECK (((NOT isempty(system_time)) AND upper_inf(system_time)))
);
ALTER TABLE pgfacts_internal.facts OWNER TO pgfacts_owner;
ALTER TABLE pgfacts_internal.facts ENABLE ROW LEVEL SECURITY;
ALTER TABLE pgfacts_internal.facts FORCE ROW LEVEL SECURITY;
CREATE INDEX facts_expiry_idx ON pgfacts_internal.facts USING btree (expires_at) WHERE ((expires_at IS NOT NULL) AND (deleted_at IS NULL));
CREATE INDEX facts_key_idx ON pgfacts_internal.facts USING btree (tenant, key text_pattern_ops) WHERE (deleted_at IS NULL);
CREATE INDEX facts_key_trgm_idx ON pgfacts_internal.facts USING gin (tenant, key gin_trgm_ops) WHERE (deleted_at IS NULL);
CREATE INDEX facts_read_idx ON pgfacts_internal.facts USING btree (tenant, updated_at DESC) WHERE (deleted_at IS NULL);
CREATE UNIQUE INDEX facts_scope_idx ON pgfacts_internal.facts USING btree (tenant, (
CASE
    WHEN shared THEN ''::text
    ELSE session_id
END), key text_pattern_ops);
CREATE INDEX facts_search_idx ON pgfacts_internal.facts USING gin (tenant COLLATE "C", search_doc) WHERE (deleted_at IS NULL);
CREATE INDEX facts_shared_recent_idx ON pgfacts_internal.facts USING btree (tenant, updated_at DESC) WHERE (shared AND (deleted_at IS NULL));
CREATE INDEX facts_tombstones_idx ON pgfacts_internal.facts USING btree (deleted_at) WHERE (deleted_at IS NOT NULL);
CREATE INDEX facts_uncrawled_idx ON pgfacts_internal.facts USING btree (tenant, key text_pattern_ops) WHERE (last_crawled_at IS NULL);
CREATE POLICY readable_keys ON pgfacts_internal.facts AS RESTRICTIVE FOR SELECT TO pgfacts_operator, pgfacts_tuner USING (pgfacts_internal.readable_by(key, ( SELECT pgfacts_internal.context_kind() AS context_kind)));
CREATE POLICY tenant_isolation ON pgfacts_internal.facts AS PERMISSIVE FOR ALL TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner USING ((tenant = ( SELECT pgfacts_internal.context_tenant() AS context_tenant)));
CREATE POLICY tenant_isolation_api ON pgfacts_internal.facts AS PERMISSIVE FOR ALL TO pgfacts_owner USING ((tenant = ( SELECT current_setting('pgfacts.tenant'::text, true) AS current_setting)));
CREATE TRIGGER facts_audit_deleted AFTER DELETE ON pgfacts_internal.facts REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION pgfacts_internal.audit_facts_deleted();
CREATE TRIGGER facts_audit_inserted AFTER INSERT ON pgfacts_internal.facts REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION pgfacts_internal.audit_facts_inserted();
CREATE TRIGGER facts_audit_updated AFTER UPDATE ON pgfacts_internal.facts REFERENCING OLD TABLE AS updated_old NEW TABLE AS updated_new FOR EACH STATEMENT EXECUTE FUNCTION pgfacts_internal.audit_facts_updated();
CREATE TRIGGER facts_before_delete BEFORE DELETE ON pgfacts_internal.facts FOR EACH ROW EXECUTE FUNCTION pgfacts_internal.facts_before_delete();
CREATE TRIGGER facts_before_insert BEFORE INSERT ON pgfacts_internal.facts FOR EACH ROW EXECUTE FUNCTION pgfacts_internal.facts_before_insert();
CREATE TRIGGER facts_before_insert_statement BEFORE INSERT ON pgfacts_internal.facts FOR EACH STATEMENT EXECUTE FUNCTION pgfacts_internal.facts_before_insert_statement();
CREATE TRIGGER facts_before_update BEFORE UPDATE ON pgfacts_internal.facts FOR EACH ROW EXECUTE FUNCTION pgfacts_internal.facts_before_update();
CREATE TRIGGER facts_embeds_statement BEFORE INSERT OR UPDATE ON pgfacts_internal.facts FOR EACH STATEMENT EXECUTE FUNCTION pgfacts_internal.facts_embeds_statement();
CREATE TRIGGER facts_incognito BEFORE INSERT OR DELETE OR UPDATE ON pgfacts_internal.facts FOR EACH STATEMENT WHEN ((pgfacts_internal.context_memory_scope() = 'none'::text)) EXECUTE FUNCTION pgfacts_internal.refuse_incognito_write();
CREATE TRIGGER facts_notify_intake_insert AFTER INSERT ON pgfacts_internal.facts FOR EACH ROW WHEN ((new.shared AND (new.deleted_at IS NULL) AND (new.key ~~ 'intake/%'::text))) EXECUTE FUNCTION pgfacts_internal.facts_notify_intake();
CREATE TRIGGER facts_notify_intake_update AFTER UPDATE ON pgfacts_internal.facts FOR EACH ROW WHEN ((new.shared AND (new.deleted_at IS NULL) AND (new.key ~~ 'intake/%'::text) AND (new.etag <> old.etag))) EXECUTE FUNCTION pgfacts_internal.facts_notify_intake();
CREATE TRIGGER facts_queue_embedding AFTER UPDATE OF key, value, deleted_at ON pgfacts_internal.facts FOR EACH ROW WHEN (((COALESCE(current_setting('pgfacts.embeds'::text, true), 'on'::text) <> 'off'::text) AND (COALESCE(current_setting('pgfacts.embeds'::text, true), 'on'::text) <> ('off '::text || new.tenant)))) EXECUTE FUNCTION pgfacts_internal.queue_fact_embedding();
CREATE TRIGGER facts_queue_embedding_insert AFTER INSERT ON pgfacts_internal.facts FOR EACH ROW WHEN (((COALESCE(current_setting('pgfacts.embeds'::text, true), 'on'::text) <> 'off'::text) AND (COALESCE(current_setting('pgfacts.embeds'::text, true), 'on'::text) <> ('off '::text || new.tenant)))) EXECUTE FUNCTION pgfacts_internal.queue_fact_embedding();
CREATE TRIGGER facts_redaction_inserted AFTER INSERT ON pgfacts_internal.facts REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION pgfacts_internal.refuse_redacted_facts_inserted();
CREATE TRIGGER facts_redaction_updated AFTER UPDATE ON pgfacts_internal.facts REFERENCING OLD TABLE AS updated_old NEW TABLE AS updated_new FOR EACH STATEMENT EXECUTE FUNCTION pgfacts_internal.refuse_redacted_facts_updated();
CREATE TRIGGER facts_review_hold BEFORE INSERT OR UPDATE ON pgfacts_internal.facts FOR EACH ROW WHEN ((new.writer_kind = ANY (ARRAY['agent'::text, 'crawler'::text]))) EXECUTE FUNCTION pgfacts_internal.hold_fact_for_review();
CREATE TRIGGER facts_set_search_doc BEFORE INSERT ON pgfacts_internal.facts FOR EACH ROW EXECUTE FUNCTION pgfacts_internal.facts_set_search_doc();
CREATE TRIGGER facts_set_search_doc_on_change BEFORE UPDATE OF key, value, tags, search_doc ON pgfacts_internal.facts FOR EACH ROW WHEN (((((old.key IS DISTINCT FROM new.key) OR (old.value IS DISTINCT FROM new.value)) OR (old.tags IS DISTINCT FROM new.tags)) OR (old.search_doc IS DISTINCT FROM new.search_doc))) EXECUTE FUNCTION pgfacts_internal.facts_set_search_doc();
GRANT SELECT ON TABLE pgfacts_internal.facts TO pgfacts_operator, pgfacts_searcher, pgfacts_tuner;
GRANT SELECT, DELETE ON TABLE pgfacts_internal.facts TO pgfacts_maintainer;
COMMENT ON TABLE pgfacts_internal.facts IS 'Working-memory facts, current version (tombstones carry deleted_at until purged)';
COMMENT ON COLUMN pgfacts_internal.facts.writer_kind IS 'The agent kind of the caller that wrote the current version (NULL: written before 0008)';
COMMENT ON COLUMN pgfacts_internal.facts.search_doc IS 'The search vector of the key, value and tags (fact_search_doc), set by the write triggers.';

CREATE SEQUENCE pgfacts_internal.facts_etag_seq;
ALTER SEQUENCE pgfacts_internal.facts_etag_seq OWNER TO pgfacts_owner;

CREATE TABLE pgfacts_internal.graph_edge_evidence (
    tenant text NOT NULL,
    edge_id bigint NOT NULL,
    source text NOT NULL,
    claim_subject bigint,
    claim_predicate text,
    added_by text,
    added_kind text NOT NULL,
    added_at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    CONSTRAINT graph_edge_evidence_claim_shape CHECK ((starts_with(source, 'claim:'::text) = ((claim_subject IS NOT NULL) AND (claim_predicate IS NOT NULL)))),
    CONSTRAINT graph_edge_evidence_edge_fkey FOREIGN KEY (tenant, edge_id) REFERENCES pgfacts_internal.graph_edges(tenant, edge_id) ON DELETE CASCADE,
    CONSTRAINT graph_edge_evidence_pkey PRIMARY KEY (tenant, edge_id, source)
);
ALTER TABLE pgfacts_internal.graph_edge_evidence OWNER TO pgfacts_owner;
ALTER TABLE pgfacts_internal.graph_edge_evidence ENABLE ROW LEVEL SECURITY;
ALTER TABLE pgfacts_internal.graph_edge_evidence FORCE ROW LEVEL SECURITY;
CREATE INDEX graph_edge_evidence_source_idx ON pgfacts_internal.graph_edge_evidence USING btree (tenant, source);
CREATE POLICY readable_sources ON pgfacts_internal.graph_edge_evidence AS RESTRICTIVE FOR SELECT TO pgfacts_operator, pgfacts_tuner USING ((starts_with(source, 'claim:'::text) OR pgfacts_internal.readable_by(pgfacts_internal.scope_key_key(source), ( SELECT pgfacts_internal.context_kind() AS context_kind))));
CREATE POLICY tenant_isolation ON pgfacts_internal.graph_edge_evidence AS PERMISSIVE FOR ALL TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner USING ((tenant = ( SELECT pgfacts_internal.context_tenant() AS context_tenant)));
CREATE POLICY tenant_isolation_api ON pgfacts_internal.graph_edge_evidence AS PERMISSIVE FOR ALL TO pgfacts_owner USING ((tenant = ( SELECT current_setting('pgfacts.tenant'::text, true) AS current_setting)));
CREATE TRIGGER graph_edge_evidence_incognito BEFORE INSERT OR DELETE OR UPDATE ON pgfacts_internal.graph_edge_evidence FOR EACH STATEMENT WHEN ((pgfacts_internal.context_memory_scope() = 'none'::text)) EXECUTE FUNCTION pgfacts_internal.refuse_incognito_write();
GRANT SELECT ON TABLE pgfacts_internal.graph_edge_evidence TO pgfacts_operator, pgfacts_tuner;
COMMENT ON TABLE pgfacts_internal.graph_edge_evidence IS 'The facts (scope keys) and claims (assertions) that support each graph edge';

CREATE TABLE pgfacts_internal.graph_edges (
    tenant text NOT NULL,
    edge_id bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
    from_id bigint NOT NULL,
    predicate_key text NOT NULL,
    to_id bigint NOT NULL,
    predicate text NOT NULL,
    confidence double precision NOT NULL,
    observations integer DEFAULT 1 NOT NULL,
    namespace text,
    asserted_by text[] DEFAULT '{}'::text[] NOT NULL,
    created_kind text NOT NULL,
    first_seen timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    last_seen timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    CONSTRAINT graph_edges_confidence_range CHECK (((confidence >= (0)::double precision) AND (confidence <= (1)::double precision))),
    CONSTRAINT graph_edges_from_fkey FOREIGN KEY (tenant, from_id) REFERENCES pgfacts_internal.graph_nodes(tenant, node_id) ON DELETE CASCADE,
    CONSTRAINT graph_edges_not_self CHECK ((from_id <> to_id)),
    CONSTRAINT graph_edges_observations_positive CHECK ((observations >= 1)),
    CONSTRAINT graph_edges_pkey PRIMARY KEY (tenant, edge_id),
    CONSTRAINT graph_edges_shape CHECK ((((octet_length(predicate_key) >= 1) AND (octet_length(predicate_key) <= 400)) AND ((length(predicate) >= 1) AND (length(predicate) <= 200)) AND ((namespace IS NULL) OR ((length(namespace) >= 1) AND (length(namespace) <= 256))))),
    CONSTRAINT graph_edges_to_fkey FOREIGN KEY (tenant, to_id) REFERENCES pgfacts_internal.graph_nodes(tenant, node_id) ON DELETE CASCADE,
    CONSTRAINT graph_edges_triple_key UNIQUE (tenant, from_id, predicate_key, to_id)
);
ALTER TABLE pgfacts_internal.graph_edges OWNER TO pgfacts_owner;
ALTER TABLE pgfacts_internal.graph_edges ENABLE ROW LEVEL SECURITY;
ALTER TABLE pgfacts_internal.graph_edges FORCE ROW LEVEL SECURITY;
CREATE INDEX graph_edges_predicate_idx ON pgfacts_internal.graph_edges USING btree (tenant, predicate_key);
CREATE INDEX graph_edges_to_idx ON pgfacts_internal.graph_edges USING btree (tenant, to_id) INCLUDE (from_id);
CREATE POLICY tenant_isolation ON pgfacts_internal.graph_edges AS PERMISSIVE FOR ALL TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner USING ((tenant = ( SELECT pgfacts_internal.context_tenant() AS context_tenant)));
CREATE POLICY tenant_isolation_api ON pgfacts_internal.graph_edges AS PERMISSIVE FOR ALL TO pgfacts_owner USING ((tenant = ( SELECT current_setting('pgfacts.tenant'::text, true) AS current_setting)));
CREATE TRIGGER graph_edges_audit_deleted AFTER DELETE ON pgfacts_internal.graph_edges REFERENCING OLD TABLE AS graph_old FOR EACH STATEMENT EXECUTE FUNCTION pgfacts_internal.audit_graph_deleted();
CREATE TRIGGER graph_edges_audit_inserted AFTER INSERT ON pgfacts_internal.graph_edges REFERENCING NEW TABLE AS graph_new FOR EACH STATEMENT EXECUTE FUNCTION pgfacts_internal.audit_graph_inserted();
CREATE TRIGGER graph_edges_audit_updated AFTER UPDATE ON pgfacts_internal.graph_edges REFERENCING OLD TABLE AS graph_old NEW TABLE AS graph_new FOR EACH STATEMENT EXECUTE FUNCTION pgfacts_internal.audit_graph_updated();
CREATE TRIGGER graph_edges_incognito BEFORE INSERT OR DELETE OR UPDATE ON pgfacts_internal.graph_edges FOR EACH STATEMENT WHEN ((pgfacts_internal.context_memory_scope() = 'none'::text)) EXECUTE FUNCTION pgfacts_internal.refuse_incognito_write();
CREATE TRIGGER graph_edges_projection_log AFTER INSERT OR DELETE ON pgfacts_internal.graph_edges FOR EACH ROW EXECUTE FUNCTION pgfacts_internal.graph_edge_changed();
CREATE TRIGGER graph_edges_projection_log_update AFTER UPDATE ON pgfacts_internal.graph_edges FOR EACH ROW WHEN (((old.from_id IS DISTINCT FROM new.from_id) OR (old.to_id IS DISTINCT FROM new.to_id) OR (old.predicate_key IS DISTINCT FROM new.predicate_key) OR (old.confidence IS DISTINCT FROM new.confidence) OR (old.namespace IS DISTINCT FROM new.namespace))) EXECUTE FUNCTION pgfacts_internal.graph_edge_changed();
CREATE TRIGGER graph_edges_redaction AFTER INSERT OR UPDATE OF predicate ON pgfacts_internal.graph_edges FOR EACH ROW EXECUTE FUNCTION pgfacts_internal.refuse_redacted_edge();
GRANT SELECT ON TABLE pgfacts_internal.graph_edges TO pgfacts_operator, pgfacts_tuner;
COMMENT ON TABLE pgfacts_internal.graph_edges IS 'Graph edges, unique per (from, predicate key, to): confidence combined by noisy-OR, observations counted once per new evidence';

CREATE TABLE pgfacts_internal.graph_node_evidence (
    tenant text NOT NULL,
    node_id bigint NOT NULL,
    source text NOT NULL,
    claim_subject bigint,
    claim_predicate text,
    added_by text,
    added_kind text NOT NULL,
    added_at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    CONSTRAINT graph_node_evidence_claim_shape CHECK ((starts_with(source, 'claim:'::text) = ((claim_subject IS NOT NULL) AND (claim_predicate IS NOT NULL)))),
    CONSTRAINT graph_node_evidence_node_fkey FOREIGN KEY (tenant, node_id) REFERENCES pgfacts_internal.graph_nodes(tenant, node_id) ON DELETE CASCADE,
    CONSTRAINT graph_node_evidence_pkey PRIMARY KEY (tenant, node_id, source)
);
ALTER TABLE pgfacts_internal.graph_node_evidence OWNER TO pgfacts_owner;
ALTER TABLE pgfacts_internal.graph_node_evidence ENABLE ROW LEVEL SECURITY;
ALTER TABLE pgfacts_internal.graph_node_evidence FORCE ROW LEVEL SECURITY;
CREATE INDEX graph_node_evidence_source_idx ON pgfacts_internal.graph_node_evidence USING btree (tenant, source);
CREATE POLICY readable_sources ON pgfacts_internal.graph_node_evidence AS RESTRICTIVE FOR SELECT TO pgfacts_operator, pgfacts_tuner USING ((starts_with(source, 'claim:'::text) OR pgfacts_internal.readable_by(pgfacts_internal.scope_key_key(source), ( SELECT pgfacts_internal.context_kind() AS context_kind))));
CREATE POLICY tenant_isolation ON pgfacts_internal.graph_node_evidence AS PERMISSIVE FOR ALL TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner USING ((tenant = ( SELECT pgfacts_internal.context_tenant() AS context_tenant)));
CREATE POLICY tenant_isolation_api ON pgfacts_internal.graph_node_evidence AS PERMISSIVE FOR ALL TO pgfacts_owner USING ((tenant = ( SELECT current_setting('pgfacts.tenant'::text, true) AS current_setting)));
CREATE TRIGGER graph_node_evidence_incognito BEFORE INSERT OR DELETE OR UPDATE ON pgfacts_internal.graph_node_evidence FOR EACH STATEMENT WHEN ((pgfacts_internal.context_memory_scope() = 'none'::text)) EXECUTE FUNCTION pgfacts_internal.refuse_incognito_write();
GRANT SELECT ON TABLE pgfacts_internal.graph_node_evidence TO pgfacts_operator, pgfacts_tuner;
COMMENT ON TABLE pgfacts_internal.graph_node_evidence IS 'The facts (scope keys) and claims (assertions) that anchor each graph node';

CREATE TABLE pgfacts_internal.graph_node_names (
    tenant text NOT NULL,
    name_key text NOT NULL,
    node_key text NOT NULL,
    CONSTRAINT graph_node_names_node_fkey FOREIGN KEY (tenant, node_key) REFERENCES pgfacts_internal.graph_nodes(tenant, node_key) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
    CONSTRAINT graph_node_names_pkey PRIMARY KEY (tenant, name_key)
);
ALTER TABLE pgfacts_internal.graph_node_names OWNER TO pgfacts_owner;
ALTER TABLE pgfacts_internal.graph_node_names ENABLE ROW LEVEL SECURITY;
ALTER TABLE pgfacts_internal.graph_node_names FORCE ROW LEVEL SECURITY;
CREATE INDEX graph_node_names_name_trgm_idx ON pgfacts_internal.graph_node_names USING gin (tenant, substr(name_key, (strpos(name_key, ':'::text) + 1)) gin_trgm_ops);
CREATE INDEX graph_node_names_node_idx ON pgfacts_internal.graph_node_names USING btree (tenant, node_key);
CREATE POLICY tenant_isolation ON pgfacts_internal.graph_node_names AS PERMISSIVE FOR ALL TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner USING ((tenant = ( SELECT pgfacts_internal.context_tenant() AS context_tenant)));
CREATE POLICY tenant_isolation_api ON pgfacts_internal.graph_node_names AS PERMISSIVE FOR ALL TO pgfacts_owner USING ((tenant = ( SELECT current_setting('pgfacts.tenant'::text, true) AS current_setting)));
CREATE TRIGGER graph_node_names_incognito BEFORE INSERT OR DELETE OR UPDATE ON pgfacts_internal.graph_node_names FOR EACH STATEMENT WHEN ((pgfacts_internal.context_memory_scope() = 'none'::text)) EXECUTE FUNCTION pgfacts_internal.refuse_incognito_write();
GRANT SELECT ON TABLE pgfacts_internal.graph_node_names TO pgfacts_operator, pgfacts_searcher, pgfacts_tuner;
COMMENT ON TABLE pgfacts_internal.graph_node_names IS 'The names (own, aliases, merged-away keys) each graph node resolves from, unique per tenant';

CREATE TABLE pgfacts_internal.graph_nodes (
    tenant text NOT NULL,
    node_id bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
    node_key text NOT NULL,
    kind_key text NOT NULL,
    kind text NOT NULL,
    name text NOT NULL,
    aliases text[] DEFAULT '{}'::text[] NOT NULL,
    namespace text,
    created_by text,
    created_kind text NOT NULL,
    created_session text,
    merged_note text,
    created_at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    updated_at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    CONSTRAINT graph_nodes_key_key UNIQUE (tenant, node_key),
    CONSTRAINT graph_nodes_namespace_shape CHECK (((namespace IS NULL) OR ((length(namespace) >= 1) AND (length(namespace) <= 256)))),
    CONSTRAINT graph_nodes_pkey PRIMARY KEY (tenant, node_id),
    CONSTRAINT graph_nodes_shape CHECK ((((octet_length(node_key) >= 3) AND (octet_length(node_key) <= 1024)) AND ((length(kind) >= 1) AND (length(kind) <= 100)) AND ((length(name) >= 1) AND (length(name) <= 500)) AND (cardinality(aliases) <= 64)))
);
ALTER TABLE pgfacts_internal.graph_nodes OWNER TO pgfacts_owner;
ALTER TABLE pgfacts_internal.graph_nodes ENABLE ROW LEVEL SECURITY;
ALTER TABLE pgfacts_internal.graph_nodes FORCE ROW LEVEL SECURITY;
CREATE INDEX graph_nodes_id_key_idx ON pgfacts_internal.graph_nodes USING btree (tenant, node_id) INCLUDE (node_key, namespace);
CREATE INDEX graph_nodes_kind_idx ON pgfacts_internal.graph_nodes USING btree (tenant, kind_key);
CREATE INDEX graph_nodes_namespace_idx ON pgfacts_internal.graph_nodes USING btree (tenant, namespace);
CREATE POLICY tenant_isolation ON pgfacts_internal.graph_nodes AS PERMISSIVE FOR ALL TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner USING ((tenant = ( SELECT pgfacts_internal.context_tenant() AS context_tenant)));
CREATE POLICY tenant_isolation_api ON pgfacts_internal.graph_nodes AS PERMISSIVE FOR ALL TO pgfacts_owner USING ((tenant = ( SELECT current_setting('pgfacts.tenant'::text, true) AS current_setting)));
CREATE TRIGGER graph_nodes_audit_deleted AFTER DELETE ON pgfacts_internal.graph_nodes REFERENCING OLD TABLE AS graph_old FOR EACH STATEMENT EXECUTE FUNCTION pgfacts_internal.audit_graph_deleted();
CREATE TRIGGER graph_nodes_audit_inserted AFTER INSERT ON pgfacts_internal.graph_nodes REFERENCING NEW TABLE AS graph_new FOR EACH STATEMENT EXECUTE FUNCTION pgfacts_internal.audit_graph_inserted();
CREATE TRIGGER graph_nodes_audit_updated AFTER UPDATE ON pgfacts_internal.graph_nodes REFERENCING OLD TABLE AS graph_old NEW TABLE AS graph_new FOR EACH STATEMENT EXECUTE FUNCTION pgfacts_internal.audit_graph_updated();
CREATE TRIGGER graph_nodes_incognito BEFORE INSERT OR DELETE OR UPDATE ON pgfacts_internal.graph_nodes FOR EACH STATEMENT WHEN ((pgfacts_internal.context_memory_scope() = 'none'::text)) EXECUTE FUNCTION pgfacts_internal.refuse_incognito_write();
CREATE TRIGGER graph_nodes_projection_log AFTER INSERT OR DELETE ON pgfacts_internal.graph_nodes FOR EACH ROW EXECUTE FUNCTION pgfacts_internal.graph_node_changed();
CREATE TRIGGER graph_nodes_projection_log_update AFTER UPDATE ON pgfacts_internal.graph_nodes FOR EACH ROW WHEN (((old.node_key IS DISTINCT FROM new.node_key) OR (old.kind_key IS DISTINCT FROM new.kind_key) OR (old.namespace IS DISTINCT FROM new.namespace))) EXECUTE FUNCTION pgfacts_internal.graph_node_changed();
CREATE TRIGGER graph_nodes_redaction AFTER INSERT OR UPDATE OF name, aliases ON pgfacts_internal.graph_nodes FOR EACH ROW EXECUTE FUNCTION pgfacts_internal.refuse_redacted_names();
GRANT SELECT ON TABLE pgfacts_internal.graph_nodes TO pgfacts_operator, pgfacts_tuner;
COMMENT ON TABLE pgfacts_internal.graph_nodes IS 'Graph nodes (kind, name, aliases, namespace): ids and structure, never fact values';

CREATE TABLE pgfacts_internal.graph_projection_changes (
    tenant text NOT NULL,
    change_id bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
    entity text NOT NULL,
    entity_id bigint NOT NULL,
    changed_at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    CONSTRAINT graph_projection_changes_entity CHECK ((entity = ANY (ARRAY['node'::text, 'edge'::text]))),
    CONSTRAINT graph_projection_changes_pkey PRIMARY KEY (tenant, change_id)
);
ALTER TABLE pgfacts_internal.graph_projection_changes OWNER TO pgfacts_owner;
ALTER TABLE pgfacts_internal.graph_projection_changes ENABLE ROW LEVEL SECURITY;
ALTER TABLE pgfacts_internal.graph_projection_changes FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON pgfacts_internal.graph_projection_changes AS PERMISSIVE FOR ALL TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner USING ((tenant = ( SELECT pgfacts_internal.context_tenant() AS context_tenant)));
CREATE POLICY tenant_isolation_api ON pgfacts_internal.graph_projection_changes AS PERMISSIVE FOR ALL TO pgfacts_owner USING ((tenant = ( SELECT current_setting('pgfacts.tenant'::text, true) AS current_setting)));
GRANT SELECT ON TABLE pgfacts_internal.graph_projection_changes TO pgfacts_maintainer;
COMMENT ON TABLE pgfacts_internal.graph_projection_changes IS 'Graph nodes and edges changed since the tenant''s AGE projection last applied them';

CREATE TABLE pgfacts_internal.graph_projections (
    tenant text NOT NULL,
    graph_name text NOT NULL,
    built_at timestamp with time zone NOT NULL,
    build_seconds double precision NOT NULL,
    synced_at timestamp with time zone NOT NULL,
    last_lag_seconds double precision,
    CONSTRAINT graph_projections_name_key UNIQUE (graph_name),
    CONSTRAINT graph_projections_pkey PRIMARY KEY (tenant)
);
ALTER TABLE pgfacts_internal.graph_projections OWNER TO pgfacts_owner;
ALTER TABLE pgfacts_internal.graph_projections ENABLE ROW LEVEL SECURITY;
ALTER TABLE pgfacts_internal.graph_projections FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON pgfacts_internal.graph_projections AS PERMISSIVE FOR ALL TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner USING ((tenant = ( SELECT pgfacts_internal.context_tenant() AS context_tenant)));
CREATE POLICY tenant_isolation_api ON pgfacts_internal.graph_projections AS PERMISSIVE FOR ALL TO pgfacts_owner USING ((tenant = ( SELECT current_setting('pgfacts.tenant'::text, true) AS current_setting)));
GRANT SELECT ON TABLE pgfacts_internal.graph_projections TO pgfacts_maintainer;
COMMENT ON TABLE pgfacts_internal.graph_projections IS 'Each tenant''s AGE projection of its graph: the graph''s name, last rebuild and last sync';

CREATE SEQUENCE pgfacts_internal.knowledge_event_seq;
ALTER SEQUENCE pgfacts_internal.knowledge_event_seq OWNER TO pgfacts_owner;
COMMENT ON SEQUENCE pgfacts_internal.knowledge_event_seq IS 'The order of knowledge writes: episodes, retractions and restores';

CREATE TABLE pgfacts_internal.knowledge_pending_writes (
    tenant text NOT NULL,
    writer xid8 DEFAULT pg_current_xact_id() NOT NULL,
    write_at timestamp with time zone NOT NULL,
    subjects bigint[] NOT NULL,
    predicates text[] NOT NULL,
    episode_id bigint,
    claim_ids bigint[] DEFAULT '{}'::bigint[] NOT NULL,
    CONSTRAINT knowledge_stamp_commit TRIGGER DEFERRABLE INITIALLY DEFERRED
);
ALTER TABLE pgfacts_internal.knowledge_pending_writes OWNER TO pgfacts_owner;
ALTER TABLE pgfacts_internal.knowledge_pending_writes ENABLE ROW LEVEL SECURITY;
ALTER TABLE pgfacts_internal.knowledge_pending_writes FORCE ROW LEVEL SECURITY;
CREATE INDEX knowledge_pending_writes_writer_idx ON pgfacts_internal.knowledge_pending_writes USING btree (writer);
CREATE POLICY tenant_isolation ON pgfacts_internal.knowledge_pending_writes AS PERMISSIVE FOR ALL TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner USING ((tenant = ( SELECT pgfacts_internal.context_tenant() AS context_tenant)));
CREATE POLICY tenant_isolation_api ON pgfacts_internal.knowledge_pending_writes AS PERMISSIVE FOR ALL TO pgfacts_owner USING ((tenant = ( SELECT current_setting('pgfacts.tenant'::text, true) AS current_setting)));
CREATE TRIGGER knowledge_pending_writes_audit_taken AFTER DELETE ON pgfacts_internal.knowledge_pending_writes REFERENCING OLD TABLE AS taken_notes FOR EACH STATEMENT EXECUTE FUNCTION pgfacts_internal.audit_notes_taken();
CREATE CONSTRAINT TRIGGER knowledge_stamp_commit AFTER INSERT ON pgfacts_internal.knowledge_pending_writes DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION pgfacts_internal.stamp_knowledge_commit();
COMMENT ON TABLE pgfacts_internal.knowledge_pending_writes IS 'Provisional instants of the knowledge writes of transactions not yet committed';

CREATE SEQUENCE pgfacts_internal.lock_key_secret_a;
ALTER SEQUENCE pgfacts_internal.lock_key_secret_a OWNER TO pgfacts_owner;
COMMENT ON SEQUENCE pgfacts_internal.lock_key_secret_a IS 'Half of the install secret every advisory lock key hashes (lock_key); owner only.';

CREATE SEQUENCE pgfacts_internal.lock_key_secret_b;
ALTER SEQUENCE pgfacts_internal.lock_key_secret_b OWNER TO pgfacts_owner;
COMMENT ON SEQUENCE pgfacts_internal.lock_key_secret_b IS 'Half of the install secret every advisory lock key hashes (lock_key); owner only.';

CREATE TABLE pgfacts_internal.memories (
    tenant text NOT NULL,
    memory_id bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
    source_kind text NOT NULL,
    source_ref text NOT NULL,
    content_hash text NOT NULL,
    occurred_at timestamp with time zone NOT NULL,
    trust text NOT NULL,
    lines jsonb NOT NULL,
    session_id text,
    agent_id text,
    recorded_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT memories_pkey PRIMARY KEY (tenant, memory_id),
    CONSTRAINT memories_source_key UNIQUE (tenant, source_kind, source_ref, content_hash),
    CONSTRAINT memories_trust_check CHECK ((trust = ANY (ARRAY['operator'::text, 'owner'::text, 'agent'::text, 'third_party'::text])))
);
ALTER TABLE pgfacts_internal.memories OWNER TO pgfacts_owner;
ALTER TABLE pgfacts_internal.memories ENABLE ROW LEVEL SECURITY;
ALTER TABLE pgfacts_internal.memories FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON pgfacts_internal.memories AS PERMISSIVE FOR ALL TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner USING ((tenant = ( SELECT pgfacts_internal.context_tenant() AS context_tenant)));
CREATE POLICY tenant_isolation_api ON pgfacts_internal.memories AS PERMISSIVE FOR ALL TO pgfacts_owner USING ((tenant = ( SELECT current_setting('pgfacts.tenant'::text, true) AS current_setting)));
CREATE TRIGGER memories_audit_recorded AFTER INSERT ON pgfacts_internal.memories FOR EACH ROW EXECUTE FUNCTION pgfacts_internal.audit_memory_recorded();
CREATE TRIGGER memories_incognito BEFORE INSERT OR DELETE OR UPDATE ON pgfacts_internal.memories FOR EACH STATEMENT WHEN ((pgfacts_internal.context_memory_scope() = 'none'::text)) EXECUTE FUNCTION pgfacts_internal.refuse_incognito_write();
CREATE TRIGGER memories_redaction AFTER INSERT ON pgfacts_internal.memories FOR EACH ROW EXECUTE FUNCTION pgfacts_internal.refuse_redacted_memory();
GRANT SELECT ON TABLE pgfacts_internal.memories TO pgfacts_maintainer;
COMMENT ON TABLE pgfacts_internal.memories IS 'Recorded memories: one version (content hash) of one source with its text lines, waiting for or done with extraction';

CREATE TABLE pgfacts_internal.override_requests (
    tenant text NOT NULL,
    idempotency_key text NOT NULL,
    request_hash text NOT NULL,
    result jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT override_requests_pkey PRIMARY KEY (tenant, idempotency_key)
);
ALTER TABLE pgfacts_internal.override_requests OWNER TO pgfacts_owner;
ALTER TABLE pgfacts_internal.override_requests ENABLE ROW LEVEL SECURITY;
ALTER TABLE pgfacts_internal.override_requests FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON pgfacts_internal.override_requests AS PERMISSIVE FOR ALL TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner USING ((tenant = ( SELECT pgfacts_internal.context_tenant() AS context_tenant)));
CREATE POLICY tenant_isolation_api ON pgfacts_internal.override_requests AS PERMISSIVE FOR ALL TO pgfacts_owner USING ((tenant = ( SELECT current_setting('pgfacts.tenant'::text, true) AS current_setting)));
CREATE TRIGGER override_requests_incognito BEFORE INSERT OR DELETE OR UPDATE ON pgfacts_internal.override_requests FOR EACH STATEMENT WHEN ((pgfacts_internal.context_memory_scope() = 'none'::text)) EXECUTE FUNCTION pgfacts_internal.refuse_incognito_write();
COMMENT ON TABLE pgfacts_internal.override_requests IS 'Operator overrides by idempotency key: a retry returns the first result';

CREATE TABLE pgfacts_internal.predicates (
    tenant text NOT NULL,
    name text NOT NULL,
    cardinality text NOT NULL,
    description text DEFAULT ''::text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT predicates_cardinality_check CHECK ((cardinality = ANY (ARRAY['one'::text, 'many'::text, 'event'::text]))),
    CONSTRAINT predicates_name_shape CHECK ((name ~ '^[a-z][a-z0-9_]{0,99}$'::text)),
    CONSTRAINT predicates_pkey PRIMARY KEY (tenant, name)
);
ALTER TABLE pgfacts_internal.predicates OWNER TO pgfacts_owner;
ALTER TABLE pgfacts_internal.predicates ENABLE ROW LEVEL SECURITY;
ALTER TABLE pgfacts_internal.predicates FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON pgfacts_internal.predicates AS PERMISSIVE FOR ALL TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner USING ((tenant = ( SELECT pgfacts_internal.context_tenant() AS context_tenant)));
CREATE POLICY tenant_isolation_api ON pgfacts_internal.predicates AS PERMISSIVE FOR ALL TO pgfacts_owner USING ((tenant = ( SELECT current_setting('pgfacts.tenant'::text, true) AS current_setting)));
CREATE TRIGGER predicates_incognito BEFORE INSERT OR DELETE OR UPDATE ON pgfacts_internal.predicates FOR EACH STATEMENT WHEN ((pgfacts_internal.context_memory_scope() = 'none'::text)) EXECUTE FUNCTION pgfacts_internal.refuse_incognito_write();
GRANT SELECT ON TABLE pgfacts_internal.predicates TO pgfacts_operator, pgfacts_tuner;
COMMENT ON TABLE pgfacts_internal.predicates IS 'What can be claimed: one (one value at a time), many (values coexist), event (a point in time)';

CREATE TABLE pgfacts_internal.purge_audit (
    tenant text NOT NULL,
    audit_id bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
    source_kind text NOT NULL,
    source_ref_sha256 text NOT NULL,
    purged_at timestamp with time zone DEFAULT now() NOT NULL,
    counts jsonb NOT NULL,
    CONSTRAINT purge_audit_pkey PRIMARY KEY (tenant, audit_id)
);
ALTER TABLE pgfacts_internal.purge_audit OWNER TO pgfacts_owner;
ALTER TABLE pgfacts_internal.purge_audit ENABLE ROW LEVEL SECURITY;
ALTER TABLE pgfacts_internal.purge_audit FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON pgfacts_internal.purge_audit AS PERMISSIVE FOR ALL TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner USING ((tenant = ( SELECT pgfacts_internal.context_tenant() AS context_tenant)));
CREATE POLICY tenant_isolation_api ON pgfacts_internal.purge_audit AS PERMISSIVE FOR ALL TO pgfacts_owner USING ((tenant = ( SELECT current_setting('pgfacts.tenant'::text, true) AS current_setting)));
CREATE TRIGGER purge_audit_audited AFTER INSERT ON pgfacts_internal.purge_audit FOR EACH ROW EXECUTE FUNCTION pgfacts_internal.audit_source_purged();
COMMENT ON TABLE pgfacts_internal.purge_audit IS 'One row per purge_source: what kind of source, a hash of its ref, counts; never content';

CREATE TABLE pgfacts_internal.redaction_placeholders (
    tenant text NOT NULL,
    placeholders text[] NOT NULL,
    pattern text,
    set_at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    CONSTRAINT redaction_placeholders_count CHECK ((cardinality(placeholders) <= 64)),
    CONSTRAINT redaction_placeholders_pattern CHECK (((pattern IS NULL) = (cardinality(placeholders) = 0))),
    CONSTRAINT redaction_placeholders_pkey PRIMARY KEY (tenant)
);
ALTER TABLE pgfacts_internal.redaction_placeholders OWNER TO pgfacts_owner;
ALTER TABLE pgfacts_internal.redaction_placeholders ENABLE ROW LEVEL SECURITY;
ALTER TABLE pgfacts_internal.redaction_placeholders FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON pgfacts_internal.redaction_placeholders AS PERMISSIVE FOR ALL TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner USING ((tenant = ( SELECT pgfacts_internal.context_tenant() AS context_tenant)));
CREATE POLICY tenant_isolation_api ON pgfacts_internal.redaction_placeholders AS PERMISSIVE FOR ALL TO pgfacts_owner USING ((tenant = ( SELECT current_setting('pgfacts.tenant'::text, true) AS current_setting)));
CREATE TRIGGER redaction_placeholders_audit AFTER INSERT OR DELETE OR UPDATE ON pgfacts_internal.redaction_placeholders FOR EACH ROW EXECUTE FUNCTION pgfacts_internal.audit_redaction_placeholders_changed();
CREATE TRIGGER redaction_placeholders_incognito BEFORE INSERT OR DELETE OR UPDATE ON pgfacts_internal.redaction_placeholders FOR EACH STATEMENT WHEN ((pgfacts_internal.context_memory_scope() = 'none'::text)) EXECUTE FUNCTION pgfacts_internal.refuse_incognito_write();
GRANT SELECT ON TABLE pgfacts_internal.redaction_placeholders TO pgfacts_operator, pgfacts_tuner;
COMMENT ON TABLE pgfacts_internal.redaction_placeholders IS 'A tenant''s redaction placeholders, refused as stored content (no row: the six defaults); pattern is the list as one regular expression (NULL: none refused)';

CREATE TABLE pgfacts_internal.replaced_fact_embeddings (
    tenant text NOT NULL,
    model text NOT NULL,
    fact_id bigint NOT NULL,
    content_hash text NOT NULL,
    dimension integer NOT NULL,
    embedding halfvec NOT NULL,
    embedded_at timestamp with time zone NOT NULL,
    replaced_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT replaced_fact_embeddings_dimension_matches CHECK ((vector_dims(embedding) = dimension)),
    CONSTRAINT replaced_fact_embeddings_model_fkey FOREIGN KEY (tenant, model) REFERENCES pgfacts_internal.embedding_models(tenant, model) ON DELETE CASCADE,
    CONSTRAINT replaced_fact_embeddings_pkey PRIMARY KEY (tenant, model, fact_id, content_hash)
);
ALTER TABLE pgfacts_internal.replaced_fact_embeddings OWNER TO pgfacts_owner;
ALTER TABLE pgfacts_internal.replaced_fact_embeddings ENABLE ROW LEVEL SECURITY;
ALTER TABLE pgfacts_internal.replaced_fact_embeddings FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON pgfacts_internal.replaced_fact_embeddings AS PERMISSIVE FOR ALL TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner USING ((tenant = ( SELECT pgfacts_internal.context_tenant() AS context_tenant)));
CREATE POLICY tenant_isolation_api ON pgfacts_internal.replaced_fact_embeddings AS PERMISSIVE FOR ALL TO pgfacts_owner USING ((tenant = ( SELECT current_setting('pgfacts.tenant'::text, true) AS current_setting)));
GRANT SELECT ON TABLE pgfacts_internal.replaced_fact_embeddings TO pgfacts_operator, pgfacts_searcher, pgfacts_tuner;
COMMENT ON TABLE pgfacts_internal.replaced_fact_embeddings IS 'Vectors of content a fact no longer has (overwritten and embedded again, or deleted), by fact and content hash, so a version of the history is ranked by the vector of its content';

CREATE TABLE pgfacts_internal.retractions (
    tenant text NOT NULL,
    retraction_id bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
    assertion text NOT NULL,
    claim_id bigint,
    retracted_at timestamp with time zone DEFAULT now() NOT NULL,
    restored_at timestamp with time zone,
    subject_id bigint,
    predicate text,
    retracted_seq bigint,
    restored_seq bigint,
    CONSTRAINT retractions_pkey PRIMARY KEY (tenant, retraction_id)
);
ALTER TABLE pgfacts_internal.retractions OWNER TO pgfacts_owner;
ALTER TABLE pgfacts_internal.retractions ENABLE ROW LEVEL SECURITY;
ALTER TABLE pgfacts_internal.retractions FORCE ROW LEVEL SECURITY;
CREATE UNIQUE INDEX retractions_active_key ON pgfacts_internal.retractions USING btree (tenant, assertion) WHERE (restored_at IS NULL);
CREATE INDEX retractions_claim_idx ON pgfacts_internal.retractions USING btree (tenant, claim_id);
CREATE INDEX retractions_slot_idx ON pgfacts_internal.retractions USING btree (subject_id, predicate);
CREATE POLICY tenant_isolation ON pgfacts_internal.retractions AS PERMISSIVE FOR ALL TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner USING ((tenant = ( SELECT pgfacts_internal.context_tenant() AS context_tenant)));
CREATE POLICY tenant_isolation_api ON pgfacts_internal.retractions AS PERMISSIVE FOR ALL TO pgfacts_owner USING ((tenant = ( SELECT current_setting('pgfacts.tenant'::text, true) AS current_setting)));
CREATE TRIGGER retractions_audit_committed AFTER UPDATE OF retracted_at ON pgfacts_internal.retractions FOR EACH ROW EXECUTE FUNCTION pgfacts_internal.audit_retraction_committed();
CREATE TRIGGER retractions_incognito BEFORE INSERT OR DELETE OR UPDATE ON pgfacts_internal.retractions FOR EACH STATEMENT WHEN ((pgfacts_internal.context_memory_scope() = 'none'::text)) EXECUTE FUNCTION pgfacts_internal.refuse_incognito_write();
GRANT SELECT ON TABLE pgfacts_internal.retractions TO pgfacts_operator, pgfacts_searcher, pgfacts_tuner;
COMMENT ON TABLE pgfacts_internal.retractions IS 'Retracted assertions (negative memory)';

CREATE TABLE pgfacts_internal.review_candidates (
    tenant text NOT NULL,
    candidate_id bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
    episode_id bigint NOT NULL,
    claim_index integer NOT NULL,
    claim jsonb NOT NULL,
    subject_id bigint NOT NULL,
    predicate text NOT NULL,
    assertion text NOT NULL,
    held_because text NOT NULL,
    held_at timestamp with time zone NOT NULL,
    status text DEFAULT 'pending'::text NOT NULL,
    decided_at timestamp with time zone,
    decided_by text,
    decision_note text,
    decision_xid xid8,
    decision_outcome jsonb,
    CONSTRAINT review_candidates_decided_shape CHECK (((status = 'pending'::text) = (decided_at IS NULL))),
    CONSTRAINT review_candidates_episode_fkey FOREIGN KEY (tenant, episode_id) REFERENCES pgfacts_internal.episodes(tenant, episode_id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
    CONSTRAINT review_candidates_held_because_check CHECK ((held_because = ANY (ARRAY['trust'::text, 'confidence'::text]))),
    CONSTRAINT review_candidates_pkey PRIMARY KEY (tenant, candidate_id),
    CONSTRAINT review_candidates_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'approved'::text, 'rejected'::text])))
);
ALTER TABLE pgfacts_internal.review_candidates OWNER TO pgfacts_owner;
ALTER TABLE pgfacts_internal.review_candidates ENABLE ROW LEVEL SECURITY;
ALTER TABLE pgfacts_internal.review_candidates FORCE ROW LEVEL SECURITY;
CREATE INDEX review_candidates_assertion_idx ON pgfacts_internal.review_candidates USING btree (tenant, assertion) WHERE (status = 'pending'::text);
CREATE INDEX review_candidates_episode_idx ON pgfacts_internal.review_candidates USING btree (tenant, episode_id);
CREATE INDEX review_candidates_pending_idx ON pgfacts_internal.review_candidates USING btree (tenant, candidate_id) WHERE (status = 'pending'::text);
CREATE POLICY tenant_isolation ON pgfacts_internal.review_candidates AS PERMISSIVE FOR ALL TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner USING ((tenant = ( SELECT pgfacts_internal.context_tenant() AS context_tenant)));
CREATE POLICY tenant_isolation_api ON pgfacts_internal.review_candidates AS PERMISSIVE FOR ALL TO pgfacts_owner USING ((tenant = ( SELECT current_setting('pgfacts.tenant'::text, true) AS current_setting)));
COMMENT ON TABLE pgfacts_internal.review_candidates IS 'Claims held for human review (never in claims until approved), with their decisions';

CREATE TABLE pgfacts_internal.review_fact_candidates (
    tenant text NOT NULL,
    candidate_id bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
    scope_key text NOT NULL,
    key text NOT NULL,
    shared boolean NOT NULL,
    session_id text,
    agent_id text,
    writer_kind text NOT NULL,
    value jsonb NOT NULL,
    tags text[] NOT NULL,
    expires_at timestamp with time zone,
    held_at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    status text DEFAULT 'pending'::text NOT NULL,
    decided_at timestamp with time zone,
    decided_by text,
    decision_note text,
    CONSTRAINT review_fact_candidates_decided_shape CHECK (((status = 'pending'::text) = (decided_at IS NULL))),
    CONSTRAINT review_fact_candidates_pkey PRIMARY KEY (tenant, candidate_id),
    CONSTRAINT review_fact_candidates_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'approved'::text, 'rejected'::text])))
);
ALTER TABLE pgfacts_internal.review_fact_candidates OWNER TO pgfacts_owner;
ALTER TABLE pgfacts_internal.review_fact_candidates ENABLE ROW LEVEL SECURITY;
ALTER TABLE pgfacts_internal.review_fact_candidates FORCE ROW LEVEL SECURITY;
CREATE INDEX review_fact_candidates_pending_idx ON pgfacts_internal.review_fact_candidates USING btree (tenant, candidate_id) WHERE (status = 'pending'::text);
CREATE POLICY tenant_isolation ON pgfacts_internal.review_fact_candidates AS PERMISSIVE FOR ALL TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner USING ((tenant = ( SELECT pgfacts_internal.context_tenant() AS context_tenant)));
CREATE POLICY tenant_isolation_api ON pgfacts_internal.review_fact_candidates AS PERMISSIVE FOR ALL TO pgfacts_owner USING ((tenant = ( SELECT current_setting('pgfacts.tenant'::text, true) AS current_setting)));
COMMENT ON TABLE pgfacts_internal.review_fact_candidates IS 'Fact writes held for human review (never in facts until approved), with their decisions';

CREATE TABLE pgfacts_internal.review_key_prefixes (
    tenant text NOT NULL,
    prefix text NOT NULL,
    set_at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    CONSTRAINT review_key_prefixes_pkey PRIMARY KEY (tenant, prefix),
    CONSTRAINT review_key_prefixes_shape CHECK (((length(prefix) >= 1) AND (length(prefix) <= 200)))
);
ALTER TABLE pgfacts_internal.review_key_prefixes OWNER TO pgfacts_owner;
ALTER TABLE pgfacts_internal.review_key_prefixes ENABLE ROW LEVEL SECURITY;
ALTER TABLE pgfacts_internal.review_key_prefixes FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON pgfacts_internal.review_key_prefixes AS PERMISSIVE FOR ALL TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner USING ((tenant = ( SELECT pgfacts_internal.context_tenant() AS context_tenant)));
CREATE POLICY tenant_isolation_api ON pgfacts_internal.review_key_prefixes AS PERMISSIVE FOR ALL TO pgfacts_owner USING ((tenant = ( SELECT current_setting('pgfacts.tenant'::text, true) AS current_setting)));
COMMENT ON TABLE pgfacts_internal.review_key_prefixes IS 'Per tenant, the fact key prefixes under which a task agent''s writes wait for review';

CREATE TABLE pgfacts_internal.review_rejections (
    tenant text NOT NULL,
    rejection_id bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
    assertion text NOT NULL,
    candidate_id bigint NOT NULL,
    rejected_at timestamp with time zone NOT NULL,
    lifted_at timestamp with time zone,
    CONSTRAINT review_rejections_pkey PRIMARY KEY (tenant, rejection_id)
);
ALTER TABLE pgfacts_internal.review_rejections OWNER TO pgfacts_owner;
ALTER TABLE pgfacts_internal.review_rejections ENABLE ROW LEVEL SECURITY;
ALTER TABLE pgfacts_internal.review_rejections FORCE ROW LEVEL SECURITY;
CREATE UNIQUE INDEX review_rejections_active_key ON pgfacts_internal.review_rejections USING btree (tenant, assertion) WHERE (lifted_at IS NULL);
CREATE POLICY tenant_isolation ON pgfacts_internal.review_rejections AS PERMISSIVE FOR ALL TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner USING ((tenant = ( SELECT pgfacts_internal.context_tenant() AS context_tenant)));
CREATE POLICY tenant_isolation_api ON pgfacts_internal.review_rejections AS PERMISSIVE FOR ALL TO pgfacts_owner USING ((tenant = ( SELECT current_setting('pgfacts.tenant'::text, true) AS current_setting)));
COMMENT ON TABLE pgfacts_internal.review_rejections IS 'Assertions a reviewer rejected (negative memory): the write path refuses them until lifted';

CREATE TABLE pgfacts_internal.schema_ledger (
    kind text NOT NULL,
    name text NOT NULL,
    sha256 text NOT NULL,
    package_version text NOT NULL,
    applied_at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    CONSTRAINT schema_ledger_kind_check CHECK ((kind = ANY (ARRAY['migration'::text, 'definition'::text]))),
    CONSTRAINT schema_ledger_pkey PRIMARY KEY (kind, name),
    CONSTRAINT schema_ledger_sha256_check CHECK ((sha256 ~ '^[0-9a-f]{64}$'::text))
);
ALTER TABLE pgfacts_internal.schema_ledger OWNER TO pgfacts_owner;
COMMENT ON TABLE pgfacts_internal.schema_ledger IS 'Applied migrations and definition files with their sha256 (maintained by pgfacts migrate)';

CREATE TABLE pgfacts_internal.search_item_sources (
    item_kind text NOT NULL,
    handler regprocedure NOT NULL,
    CONSTRAINT search_item_sources_kind_check CHECK (((item_kind ~ '^[a-z][a-z_]{0,30}$'::text) AND (item_kind <> ALL (ARRAY['fact'::text, 'claim'::text])))),
    CONSTRAINT search_item_sources_pkey PRIMARY KEY (item_kind)
);
ALTER TABLE pgfacts_internal.search_item_sources OWNER TO pgfacts_owner;
COMMENT ON TABLE pgfacts_internal.search_item_sources IS 'The item kinds later layers serve to search (register_search_source): kind and handler';

CREATE TABLE pgfacts_internal.sessions (
    tenant text NOT NULL,
    session_id text NOT NULL,
    parent_session_id text,
    root_session_id text NOT NULL,
    agent_id text,
    created_at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    ended_at timestamp with time zone,
    deleted_at timestamp with time zone,
    CONSTRAINT sessions_id_shape CHECK ((((octet_length(session_id) >= 1) AND (octet_length(session_id) <= 256)) AND (strpos(session_id, ':'::text) = 0))),
    CONSTRAINT sessions_not_own_parent CHECK ((parent_session_id <> session_id)),
    CONSTRAINT sessions_parent_fkey FOREIGN KEY (tenant, parent_session_id) REFERENCES pgfacts_internal.sessions(tenant, session_id),
    CONSTRAINT sessions_pkey PRIMARY KEY (tenant, session_id),
    CONSTRAINT sessions_root_shape CHECK (((parent_session_id IS NULL) = (root_session_id = session_id)))
);
ALTER TABLE pgfacts_internal.sessions OWNER TO pgfacts_owner;
ALTER TABLE pgfacts_internal.sessions ENABLE ROW LEVEL SECURITY;
ALTER TABLE pgfacts_internal.sessions FORCE ROW LEVEL SECURITY;
CREATE INDEX sessions_parent_idx ON pgfacts_internal.sessions USING btree (tenant, parent_session_id) WHERE (parent_session_id IS NOT NULL);
CREATE INDEX sessions_root_idx ON pgfacts_internal.sessions USING btree (tenant, root_session_id);
CREATE POLICY tenant_isolation ON pgfacts_internal.sessions AS PERMISSIVE FOR ALL TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner USING ((tenant = ( SELECT pgfacts_internal.context_tenant() AS context_tenant)));
CREATE POLICY tenant_isolation_api ON pgfacts_internal.sessions AS PERMISSIVE FOR ALL TO pgfacts_owner USING ((tenant = ( SELECT current_setting('pgfacts.tenant'::text, true) AS current_setting)));
GRANT SELECT ON TABLE pgfacts_internal.sessions TO pgfacts_operator, pgfacts_tuner;
COMMENT ON TABLE pgfacts_internal.sessions IS 'Session registry per tenant: the spawn tree is the parent_session_id forest';

CREATE TABLE pgfacts_internal.setting_definitions (
    name text NOT NULL,
    layer text NOT NULL,
    position integer NOT NULL,
    value_type text NOT NULL,
    minimum numeric NOT NULL,
    maximum numeric NOT NULL,
    default_value jsonb NOT NULL,
    description text NOT NULL,
    CONSTRAINT setting_definitions_bounds_check CHECK ((minimum <= maximum)),
    CONSTRAINT setting_definitions_pkey PRIMARY KEY (name),
    CONSTRAINT setting_definitions_position_key UNIQUE ("position"),
    CONSTRAINT setting_definitions_value_type_check CHECK ((value_type = ANY (ARRAY['integer'::text, 'number'::text])))
);
ALTER TABLE pgfacts_internal.setting_definitions OWNER TO pgfacts_owner;
GRANT SELECT ON TABLE pgfacts_internal.setting_definitions TO pgfacts_maintainer, pgfacts_operator, pgfacts_tuner;
COMMENT ON TABLE pgfacts_internal.setting_definitions IS 'The tenant settings of this install, one row per setting, written by register_setting() from each layer''s definitions; read by set_setting (the bounds) and setting() (the default).';

CREATE TABLE pgfacts_internal.settings (
    tenant text NOT NULL,
    name text NOT NULL,
    value jsonb NOT NULL,
    updated_at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    CONSTRAINT settings_pkey PRIMARY KEY (tenant, name),
    CONSTRAINT settings_tenant_shape CHECK ((tenant ~ '^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$'::text))
);
ALTER TABLE pgfacts_internal.settings OWNER TO pgfacts_owner;
ALTER TABLE pgfacts_internal.settings ENABLE ROW LEVEL SECURITY;
ALTER TABLE pgfacts_internal.settings FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON pgfacts_internal.settings AS PERMISSIVE FOR ALL TO public USING ((tenant = ( SELECT pgfacts_internal.context_tenant() AS context_tenant))) WITH CHECK ((tenant = ( SELECT pgfacts_internal.context_tenant() AS context_tenant)));
CREATE TRIGGER settings_audit_changed AFTER INSERT OR DELETE OR UPDATE ON pgfacts_internal.settings FOR EACH ROW EXECUTE FUNCTION pgfacts_internal.audit_setting_changed();
CREATE TRIGGER settings_incognito BEFORE INSERT OR DELETE OR UPDATE ON pgfacts_internal.settings FOR EACH STATEMENT WHEN ((pgfacts_internal.context_memory_scope() = 'none'::text)) EXECUTE FUNCTION pgfacts_internal.refuse_incognito_write();
GRANT SELECT ON TABLE pgfacts_internal.settings TO pgfacts_maintainer, pgfacts_operator, pgfacts_tuner;
COMMENT ON TABLE pgfacts_internal.settings IS 'Per-tenant settings (no cross-tenant defaults)';

CREATE TYPE pgfacts_internal.slot_event AS (
    kind text,
    seq bigint,
    episode pgfacts_internal.episodes,
    at timestamp with time zone,
    assertion text,
    retracted_at timestamp with time zone
);
ALTER TYPE pgfacts_internal.slot_event OWNER TO pgfacts_owner;

CREATE TYPE pgfacts_internal.slot_picture AS (
    subject bigint,
    predicate text,
    rows pgfacts_internal.slot_row[]
);
ALTER TYPE pgfacts_internal.slot_picture OWNER TO pgfacts_owner;

CREATE TYPE pgfacts_internal.slot_row AS (
    claim pgfacts_internal.claims,
    state text,
    trust integer,
    lines pgfacts_internal.source_line[]
);
ALTER TYPE pgfacts_internal.slot_row OWNER TO pgfacts_owner;

CREATE TYPE pgfacts_internal.source_line AS (
    line pgfacts_internal.claim_sources,
    write boolean
);
ALTER TYPE pgfacts_internal.source_line OWNER TO pgfacts_owner;

CREATE TABLE pgfacts_internal.tenant_logins (
    tenant text NOT NULL,
    login name NOT NULL,
    granted_at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    CONSTRAINT tenant_logins_pkey PRIMARY KEY (tenant, login),
    CONSTRAINT tenant_logins_tenant_shape CHECK ((tenant ~ '^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$'::text))
);
ALTER TABLE pgfacts_internal.tenant_logins OWNER TO pgfacts_owner;
ALTER TABLE pgfacts_internal.tenant_logins ENABLE ROW LEVEL SECURITY;
ALTER TABLE pgfacts_internal.tenant_logins FORCE ROW LEVEL SECURITY;
CREATE INDEX tenant_logins_login_idx ON pgfacts_internal.tenant_logins USING btree (login, tenant);
CREATE POLICY tenant_logins_manage ON pgfacts_internal.tenant_logins AS PERMISSIVE FOR ALL TO pgfacts_owner USING ((tenant = NULLIF(current_setting('pgfacts.binding'::text, true), ''::text))) WITH CHECK ((tenant = NULLIF(current_setting('pgfacts.binding'::text, true), ''::text)));
CREATE POLICY tenant_logins_own ON pgfacts_internal.tenant_logins AS PERMISSIVE FOR SELECT TO public USING ((login = SESSION_USER));
CREATE TRIGGER tenant_logins_audit_changed AFTER INSERT OR DELETE ON pgfacts_internal.tenant_logins FOR EACH ROW EXECUTE FUNCTION pgfacts_internal.audit_login_changed();
GRANT SELECT ON TABLE pgfacts_internal.tenant_logins TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;
COMMENT ON TABLE pgfacts_internal.tenant_logins IS 'Logins bound to tenants: set_context refuses a tenant the login is not bound to';

CREATE TABLE pgfacts_internal.tools (
    name text NOT NULL,
    layer text NOT NULL,
    position integer NOT NULL,
    handler text NOT NULL,
    api_functions text[] NOT NULL,
    arguments text[] NOT NULL,
    description text NOT NULL,
    input_schema jsonb NOT NULL,
    output_schema jsonb NOT NULL,
    read_only boolean NOT NULL,
    destructive boolean NOT NULL,
    idempotent boolean NOT NULL,
    available_when text,
    CONSTRAINT tools_input_schema_object CHECK ((jsonb_typeof(input_schema) = 'object'::text)),
    CONSTRAINT tools_output_schema_object CHECK (((jsonb_typeof(output_schema) = 'object'::text) AND ((output_schema ->> 'type'::text) = 'object'::text))),
    CONSTRAINT tools_pkey PRIMARY KEY (name),
    CONSTRAINT tools_position_key UNIQUE ("position"),
    CONSTRAINT tools_read_only_not_destructive CHECK ((NOT (read_only AND destructive)))
);
ALTER TABLE pgfacts_internal.tools OWNER TO pgfacts_owner;
GRANT SELECT ON TABLE pgfacts_internal.tools TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;
COMMENT ON TABLE pgfacts_internal.tools IS 'The agent tools of this install, one row per tool, written by register_tool() from each layer''s definitions; read by call_tool and tool_definitions.';
COMMENT ON COLUMN pgfacts_internal.tools.output_schema IS 'JSON Schema of the tool''s result, an object at the root (MCP outputSchema).';
COMMENT ON COLUMN pgfacts_internal.tools.available_when IS 'A function (tenant text) -> boolean that must hold for the tool to be offered to the tenant (available_tools), or NULL: always.';

CREATE TABLE pgfacts_internal.transfer_batches (
    tenant text NOT NULL,
    import_id bigint NOT NULL,
    first_line bigint NOT NULL,
    last_line bigint NOT NULL,
    CONSTRAINT transfer_batches_import_fkey FOREIGN KEY (tenant, import_id) REFERENCES pgfacts_internal.transfer_imports(tenant, import_id) ON DELETE CASCADE,
    CONSTRAINT transfer_batches_lines_check CHECK (((first_line >= 1) AND (last_line >= first_line))),
    CONSTRAINT transfer_batches_pkey PRIMARY KEY (tenant, import_id, first_line)
);
ALTER TABLE pgfacts_internal.transfer_batches OWNER TO pgfacts_owner;
ALTER TABLE pgfacts_internal.transfer_batches ENABLE ROW LEVEL SECURITY;
ALTER TABLE pgfacts_internal.transfer_batches FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON pgfacts_internal.transfer_batches AS PERMISSIVE FOR ALL TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner USING ((tenant = ( SELECT pgfacts_internal.context_tenant() AS context_tenant)));
CREATE POLICY tenant_isolation_api ON pgfacts_internal.transfer_batches AS PERMISSIVE FOR ALL TO pgfacts_owner USING ((tenant = ( SELECT current_setting('pgfacts.tenant'::text, true) AS current_setting)));
COMMENT ON TABLE pgfacts_internal.transfer_batches IS 'Committed batches of an open import past its checkpoint (a batch written while an earlier one was still in progress); removed as the checkpoint passes them';

CREATE TABLE pgfacts_internal.transfer_imports (
    tenant text NOT NULL,
    import_id bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
    file_sha256 text NOT NULL,
    file_name text,
    family text,
    total_lines bigint,
    lines_done bigint DEFAULT 0 NOT NULL,
    inserted bigint DEFAULT 0 NOT NULL,
    superseded bigint DEFAULT 0 NOT NULL,
    duplicate bigint DEFAULT 0 NOT NULL,
    rejected bigint DEFAULT 0 NOT NULL,
    opened_at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    finished_at timestamp with time zone,
    abandoned boolean DEFAULT false NOT NULL,
    batch_lines integer,
    rejects_through bigint DEFAULT 0 NOT NULL,
    rejects_bytes bigint,
    staged_lines bigint DEFAULT 0 NOT NULL,
    staged_through bigint,
    CONSTRAINT transfer_imports_family_check CHECK ((family = ANY (ARRAY['lossless'::text, 'plain'::text]))),
    CONSTRAINT transfer_imports_pkey PRIMARY KEY (tenant, import_id),
    CONSTRAINT transfer_imports_sha256_shape CHECK ((file_sha256 ~ '^[0-9a-f]{64}$'::text))
);
ALTER TABLE pgfacts_internal.transfer_imports OWNER TO pgfacts_owner;
ALTER TABLE pgfacts_internal.transfer_imports ENABLE ROW LEVEL SECURITY;
ALTER TABLE pgfacts_internal.transfer_imports FORCE ROW LEVEL SECURITY;
CREATE UNIQUE INDEX transfer_imports_one_open ON pgfacts_internal.transfer_imports USING btree (tenant) WHERE (finished_at IS NULL);
CREATE POLICY tenant_isolation ON pgfacts_internal.transfer_imports AS PERMISSIVE FOR ALL TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner USING ((tenant = ( SELECT pgfacts_internal.context_tenant() AS context_tenant)));
CREATE POLICY tenant_isolation_api ON pgfacts_internal.transfer_imports AS PERMISSIVE FOR ALL TO pgfacts_owner USING ((tenant = ( SELECT current_setting('pgfacts.tenant'::text, true) AS current_setting)));
COMMENT ON TABLE pgfacts_internal.transfer_imports IS 'One row per import of a file into a tenant: its checkpoint (lines_done) and counts; at most one open (unfinished) import per tenant';
COMMENT ON COLUMN pgfacts_internal.transfer_imports.batch_lines IS 'The lines of each batch of this import, set by its first batch (every session writing it cuts the same slices)';
COMMENT ON COLUMN pgfacts_internal.transfer_imports.rejects_through IS 'The line through which the client has written the rejected lines to its rejects file';
COMMENT ON COLUMN pgfacts_internal.transfer_imports.rejects_bytes IS 'The length of the client''s rejects file when it held the rejects through rejects_through (NULL: not reported); a resumed import cuts the file back to it';
COMMENT ON COLUMN pgfacts_internal.transfer_imports.staged_lines IS 'How many of the file''s lines its staged parts hold (import_staged)';
COMMENT ON COLUMN pgfacts_internal.transfer_imports.staged_through IS 'The file''s last line number, once the part that ends the file is staged';

CREATE TABLE pgfacts_internal.transfer_lines (
    tenant text NOT NULL,
    line_no bigint NOT NULL,
    line text NOT NULL,
    CONSTRAINT transfer_lines_pkey PRIMARY KEY (tenant, line_no)
);
ALTER TABLE pgfacts_internal.transfer_lines OWNER TO pgfacts_owner;
ALTER TABLE pgfacts_internal.transfer_lines ENABLE ROW LEVEL SECURITY;
ALTER TABLE pgfacts_internal.transfer_lines FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON pgfacts_internal.transfer_lines AS PERMISSIVE FOR ALL TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner USING ((tenant = ( SELECT pgfacts_internal.context_tenant() AS context_tenant)));
CREATE POLICY tenant_isolation_api ON pgfacts_internal.transfer_lines AS PERMISSIVE FOR ALL TO pgfacts_owner USING ((tenant = ( SELECT current_setting('pgfacts.tenant'::text, true) AS current_setting)));
COMMENT ON TABLE pgfacts_internal.transfer_lines IS 'The staged lines of a tenant''s open import, numbered from 1 in file order; removed when the import finishes or is abandoned';

CREATE TABLE pgfacts_internal.transfer_rejects (
    tenant text NOT NULL,
    import_id bigint NOT NULL,
    line_no bigint NOT NULL,
    reason text NOT NULL,
    message text,
    line text NOT NULL,
    CONSTRAINT transfer_rejects_import_fkey FOREIGN KEY (tenant, import_id) REFERENCES pgfacts_internal.transfer_imports(tenant, import_id) ON DELETE CASCADE,
    CONSTRAINT transfer_rejects_line_check CHECK ((line_no >= 1)),
    CONSTRAINT transfer_rejects_pkey PRIMARY KEY (tenant, import_id, line_no)
);
ALTER TABLE pgfacts_internal.transfer_rejects OWNER TO pgfacts_owner;
ALTER TABLE pgfacts_internal.transfer_rejects ENABLE ROW LEVEL SECURITY;
ALTER TABLE pgfacts_internal.transfer_rejects FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON pgfacts_internal.transfer_rejects AS PERMISSIVE FOR ALL TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner USING ((tenant = ( SELECT pgfacts_internal.context_tenant() AS context_tenant)));
CREATE POLICY tenant_isolation_api ON pgfacts_internal.transfer_rejects AS PERMISSIVE FOR ALL TO pgfacts_owner USING ((tenant = ( SELECT current_setting('pgfacts.tenant'::text, true) AS current_setting)));
COMMENT ON TABLE pgfacts_internal.transfer_rejects IS 'The rejected lines of an open import''s committed batches not yet written to the client''s rejects file; removed when it has written them, or when the import finishes or is abandoned';

CREATE FUNCTION pgfacts.agent_prompt(max_skills integer DEFAULT 5)
    RETURNS text
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.agent_prompt(integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.agent_prompt(integer) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.allow_embedding_dimension(dimension integer)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    SET max_parallel_maintenance_workers = 0;
ALTER FUNCTION pgfacts.allow_embedding_dimension(integer) OWNER TO pgfacts_owner;

CREATE FUNCTION pgfacts.apply_retention("limit" integer DEFAULT 100)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.apply_retention(integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.apply_retention(integer) TO pgfacts_operator;

CREATE FUNCTION pgfacts.apply_retention_everywhere(batch integer DEFAULT 100)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.apply_retention_everywhere(integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.apply_retention_everywhere(integer) TO pgfacts_operator;

CREATE FUNCTION pgfacts.approve_claim(candidate_id bigint, note text DEFAULT NULL::text)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.approve_claim(bigint,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.approve_claim(bigint,text) TO pgfacts_operator, pgfacts_reviewer;

CREATE FUNCTION pgfacts.approve_fact(candidate_id bigint, note text DEFAULT NULL::text)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.approve_fact(bigint,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.approve_fact(bigint,text) TO pgfacts_operator, pgfacts_reviewer;

CREATE FUNCTION pgfacts.as_of(subject bigint, predicate text, valid_at timestamp with time zone DEFAULT NULL::timestamp with time zone, known_at timestamp with time zone DEFAULT NULL::timestamp with time zone)
    RETURNS TABLE(claim_id bigint, object_value jsonb, object_entity_id bigint, claim_text text, confidence real, valid_from timestamp with time zone, valid_to timestamp with time zone, recorded_at timestamp with time zone)
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.as_of(bigint,text,timestamp with time zone,timestamp with time zone) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.as_of(bigint,text,timestamp with time zone,timestamp with time zone) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.audit(since timestamp with time zone DEFAULT NULL::timestamp with time zone, until timestamp with time zone DEFAULT NULL::timestamp with time zone, operation text DEFAULT NULL::text, target text DEFAULT NULL::text, agent_id text DEFAULT NULL::text, session_id text DEFAULT NULL::text, "limit" integer DEFAULT 100)
    RETURNS TABLE(audit_id bigint, at timestamp with time zone, audit_operation text, audit_target text, db_role text, audit_session_id text, audit_agent_id text, audit_agent_kind text, before jsonb, after jsonb)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.audit(timestamp with time zone,timestamp with time zone,text,text,text,text,integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.audit(timestamp with time zone,timestamp with time zone,text,text,text,text,integer) TO pgfacts_operator, pgfacts_tuner;

CREATE FUNCTION pgfacts.available_tools()
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.available_tools() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.available_tools() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.bind_tenant_login(login name, tenant text)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.bind_tenant_login(name,text) OWNER TO pgfacts_owner;

CREATE FUNCTION pgfacts.bulk_store_facts(records jsonb DEFAULT NULL::jsonb, source bytea DEFAULT NULL::bytea, sha256 text DEFAULT NULL::text, expected_count integer DEFAULT NULL::integer, key_prefix text DEFAULT NULL::text)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.bulk_store_facts(jsonb,bytea,text,integer,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.bulk_store_facts(jsonb,bytea,text,integer,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator;

CREATE FUNCTION pgfacts.call_tool(name text, args jsonb DEFAULT '{}'::jsonb, context jsonb DEFAULT NULL::jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.call_tool(text,jsonb,jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.call_tool(text,jsonb,jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.changes(since timestamp with time zone, until timestamp with time zone DEFAULT NULL::timestamp with time zone)
    RETURNS TABLE(claim_id bigint, subject_id bigint, predicate text, object_value jsonb, change text, changed_at timestamp with time zone, retired_reason text)
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.changes(timestamp with time zone,timestamp with time zone) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.changes(timestamp with time zone,timestamp with time zone) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.claim_embedding_work(batch_size integer DEFAULT 64)
    RETURNS TABLE(item_kind text, item_id bigint, content_hash text, content text, retry boolean)
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.claim_embedding_work(integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.claim_embedding_work(integer) TO pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator;

CREATE FUNCTION pgfacts.claim_extraction_work(batch_size integer DEFAULT 10)
    RETURNS TABLE(tenant text, event_id bigint, memory_id bigint, lease_token uuid, attempt integer, lease_expires_at timestamp with time zone, source_kind text, source_ref text, content_hash text, occurred_at timestamp with time zone, trust text, lines jsonb)
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.claim_extraction_work(integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.claim_extraction_work(integer) TO pgfacts_operator;

CREATE FUNCTION pgfacts.claim_history(subject bigint, predicate text)
    RETURNS TABLE(claim_id bigint, object_value jsonb, object_entity_id bigint, claim_text text, confidence real, valid_from timestamp with time zone, valid_to timestamp with time zone, recorded_at timestamp with time zone, retired_at timestamp with time zone, retired_reason text, superseded_by bigint, copied_from bigint)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.claim_history(bigint,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.claim_history(bigint,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.complete_extraction(event_id bigint, lease_token uuid, extractor text, claims jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.complete_extraction(bigint,uuid,text,jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.complete_extraction(bigint,uuid,text,jsonb) TO pgfacts_operator;

CREATE FUNCTION pgfacts.complete_extractions(extractor text, results jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.complete_extractions(text,jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.complete_extractions(text,jsonb) TO pgfacts_operator;

CREATE FUNCTION pgfacts.context_pack(query text, token_budget integer DEFAULT 2000, query_vector vector DEFAULT NULL::vector, model text DEFAULT NULL::text, scope text DEFAULT 'accessible'::text, "limit" integer DEFAULT 20, chars_per_token real DEFAULT 4, include_candidates boolean DEFAULT false, neighbours integer DEFAULT 0)
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.context_pack(text,integer,vector,text,text,integer,real,boolean,integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.context_pack(text,integer,vector,text,text,integer,real,boolean,integer) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.current_claims(subject bigint)
    RETURNS TABLE(claim_id bigint, predicate text, object_value jsonb, object_entity_id bigint, claim_text text, confidence real, valid_from timestamp with time zone, valid_to timestamp with time zone)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.current_claims(bigint) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.current_claims(bigint) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.current_context()
    RETURNS jsonb
    LANGUAGE sql STABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts.current_context() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.current_context() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.define_predicate(name text, cardinality text, description text DEFAULT ''::text)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.define_predicate(text,text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.define_predicate(text,text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator;

CREATE FUNCTION pgfacts.delete_fact(key text, shared boolean DEFAULT false, pattern boolean DEFAULT false, scope text DEFAULT NULL::text)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.delete_fact(text,boolean,boolean,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.delete_fact(text,boolean,boolean,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator;

CREATE FUNCTION pgfacts.delete_session(session_id text)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.delete_session(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.delete_session(text) TO pgfacts_facts_manager, pgfacts_operator;

CREATE FUNCTION pgfacts.detect_intent(query text)
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.detect_intent(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.detect_intent(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.embedding_backlog()
    RETURNS jsonb
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.embedding_backlog() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.embedding_backlog() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.embedding_backlog_by_tenant(model text DEFAULT NULL::text)
    RETURNS TABLE(tenant text, queued bigint, retry bigint, failed bigint, oldest_enqueued timestamp with time zone)
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.embedding_backlog_by_tenant(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.embedding_backlog_by_tenant(text) TO pgfacts_operator;

CREATE FUNCTION pgfacts.end_session(session_id text)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.end_session(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.end_session(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator;

CREATE FUNCTION pgfacts.ensure_entity(kind text, name text, aliases text[] DEFAULT '{}'::text[], external_ref text DEFAULT NULL::text)
    RETURNS bigint
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.ensure_entity(text,text,text[],text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.ensure_entity(text,text,text[],text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator;

CREATE FUNCTION pgfacts.explain(claim_id bigint)
    RETURNS jsonb
    LANGUAGE sql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.explain(bigint) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.explain(bigint) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.explain_claim(claim_id bigint)
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.explain_claim(bigint) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.explain_claim(bigint) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.export_tenant(embeddings boolean DEFAULT false, audit boolean DEFAULT false)
    RETURNS SETOF text
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    SET TimeZone = UTC
    SET DateStyle = ISO, YMD
    SET IntervalStyle = iso_8601
    SET extra_float_digits = 1;
ALTER FUNCTION pgfacts.export_tenant(boolean,boolean) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.export_tenant(boolean,boolean) TO pgfacts_operator;

CREATE FUNCTION pgfacts.extraction_backlog()
    RETURNS TABLE(tenant text, due bigint, ready bigint, leased bigint, failed bigint, oldest_due timestamp with time zone)
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.extraction_backlog() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.extraction_backlog() TO pgfacts_operator;

CREATE FUNCTION pgfacts.extraction_context(memory_id bigint, max_entities integer DEFAULT 50)
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.extraction_context(bigint,integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.extraction_context(bigint,integer) TO pgfacts_facts_manager, pgfacts_operator, pgfacts_tuner;

CREATE FUNCTION pgfacts.extraction_events(state text DEFAULT NULL::text, "limit" integer DEFAULT 50)
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.extraction_events(text,integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.extraction_events(text,integer) TO pgfacts_facts_manager, pgfacts_operator, pgfacts_tuner;

CREATE FUNCTION pgfacts.extraction_health(tenant text DEFAULT NULL::text)
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.extraction_health(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.extraction_health(text) TO pgfacts_operator;

CREATE FUNCTION pgfacts.extraction_prompt(context jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.extraction_prompt(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.extraction_prompt(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.extraction_status(event_id bigint)
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.extraction_status(bigint) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.extraction_status(bigint) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.fact_history(key text, shared boolean DEFAULT false, session_id text DEFAULT NULL::text)
    RETURNS TABLE(scope_key text, value jsonb, fact_tags text[], fact_agent_id text, etag bigint, deleted boolean, known_from timestamp with time zone, known_to timestamp with time zone, current boolean)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.fact_history(text,boolean,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.fact_history(text,boolean,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.fact_review_queue("limit" integer DEFAULT 50)
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.fact_review_queue(integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.fact_review_queue(integer) TO pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.facts_read_uncrawled(key_prefix text DEFAULT NULL::text, "limit" integer DEFAULT 20)
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.facts_read_uncrawled(text,integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.facts_read_uncrawled(text,integer) TO pgfacts_crawler, pgfacts_facts_manager;

CREATE FUNCTION pgfacts.facts_set_crawled(scope_keys jsonb DEFAULT NULL::jsonb, key_prefix text DEFAULT NULL::text, crawled boolean DEFAULT true)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.facts_set_crawled(jsonb,text,boolean) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.facts_set_crawled(jsonb,text,boolean) TO pgfacts_crawler, pgfacts_facts_manager;

CREATE FUNCTION pgfacts.facts_stats()
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.facts_stats() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.facts_stats() TO pgfacts_facts_manager, pgfacts_operator, pgfacts_tuner;

CREATE FUNCTION pgfacts.fail_embedding_work(items jsonb, error_code integer)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.fail_embedding_work(jsonb,integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.fail_embedding_work(jsonb,integer) TO pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator;

CREATE FUNCTION pgfacts.fail_extraction(event_id bigint, lease_token uuid, error_code integer, error text DEFAULT NULL::text)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.fail_extraction(bigint,uuid,integer,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.fail_extraction(bigint,uuid,integer,text) TO pgfacts_operator;

CREATE FUNCTION pgfacts.find_keys(pattern text, "limit" integer DEFAULT 10, scope text DEFAULT 'accessible'::text)
    RETURNS TABLE(scope_key text, key text, similarity real)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.find_keys(text,integer,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.find_keys(text,integer,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.force_extract(memory_id bigint)
    RETURNS bigint
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.force_extract(bigint) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.force_extract(bigint) TO pgfacts_facts_manager, pgfacts_operator;

CREATE FUNCTION pgfacts.graph_cypher(name text, params jsonb DEFAULT '{}'::jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, ag_catalog, pg_temp;
ALTER FUNCTION pgfacts.graph_cypher(text,jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.graph_cypher(text,jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.graph_delete_edge(from_key text, to_key text, predicate_key text, namespace text DEFAULT NULL::text)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.graph_delete_edge(text,text,text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.graph_delete_edge(text,text,text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator;

CREATE FUNCTION pgfacts.graph_delete_node(node_key text, namespace text DEFAULT NULL::text)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.graph_delete_node(text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.graph_delete_node(text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator;

CREATE FUNCTION pgfacts.graph_merge_nodes(from_key text, into_key text, reason text DEFAULT NULL::text, namespace text DEFAULT NULL::text)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.graph_merge_nodes(text,text,text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.graph_merge_nodes(text,text,text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator;

CREATE FUNCTION pgfacts.graph_neighbourhood(node_key text DEFAULT NULL::text, depth integer DEFAULT 1, seeds text[] DEFAULT NULL::text[], namespace text DEFAULT NULL::text, "limit" integer DEFAULT 100, valid_at timestamp with time zone DEFAULT NULL::timestamp with time zone, known_at timestamp with time zone DEFAULT NULL::timestamp with time zone)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    SET plan_cache_mode = force_generic_plan;
ALTER FUNCTION pgfacts.graph_neighbourhood(text,integer,text[],text,integer,timestamp with time zone,timestamp with time zone) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.graph_neighbourhood(text,integer,text[],text,integer,timestamp with time zone,timestamp with time zone) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.graph_projection_backlog()
    RETURNS TABLE(tenant text, graph_name text, state text, pending bigint, oldest_change timestamp with time zone, synced_at timestamp with time zone, last_lag_seconds double precision)
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.graph_projection_backlog() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.graph_projection_backlog() TO pgfacts_operator;

CREATE FUNCTION pgfacts.graph_projection_name()
    RETURNS text
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.graph_projection_name() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.graph_projection_name() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.graph_remove_evidence(scope_key text, namespace text DEFAULT NULL::text)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.graph_remove_evidence(text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.graph_remove_evidence(text,text) TO pgfacts_crawler, pgfacts_facts_manager;

CREATE FUNCTION pgfacts.graph_search_edges(predicate text DEFAULT NULL::text, predicate_key text DEFAULT NULL::text, from_key text DEFAULT NULL::text, to_key text DEFAULT NULL::text, min_confidence double precision DEFAULT NULL::double precision, namespace text DEFAULT NULL::text, "limit" integer DEFAULT 50)
    RETURNS TABLE(edge_from_key text, edge_predicate text, edge_predicate_key text, edge_to_key text, confidence double precision, observations integer, edge_namespace text, evidence text[], stale_evidence text[], asserted_by text[], first_seen timestamp with time zone, last_seen timestamp with time zone)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.graph_search_edges(text,text,text,text,double precision,text,integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.graph_search_edges(text,text,text,text,double precision,text,integer) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.graph_search_nodes(kind text DEFAULT NULL::text, name_like text DEFAULT NULL::text, namespace text DEFAULT NULL::text, seeds text[] DEFAULT NULL::text[], depth integer DEFAULT 1, "limit" integer DEFAULT 50)
    RETURNS TABLE(node_key text, node_kind text, node_name text, aliases text[], node_namespace text, distance integer, evidence text[], stale_evidence text[], created_by text, created_at timestamp with time zone, updated_at timestamp with time zone)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    SET plan_cache_mode = force_generic_plan;
ALTER FUNCTION pgfacts.graph_search_nodes(text,text,text,text[],integer,integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.graph_search_nodes(text,text,text,text[],integer,integer) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.graph_stats(namespace text DEFAULT NULL::text)
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.graph_stats(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.graph_stats(text) TO pgfacts_facts_manager, pgfacts_operator, pgfacts_tuner;

CREATE FUNCTION pgfacts.graph_upsert_edge(from_key text, to_key text, predicate text, namespace text DEFAULT NULL::text, confidence double precision DEFAULT 1, evidence text[] DEFAULT NULL::text[])
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.graph_upsert_edge(text,text,text,text,double precision,text[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.graph_upsert_edge(text,text,text,text,double precision,text[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator;

CREATE FUNCTION pgfacts.graph_upsert_node(kind text, name text, namespace text DEFAULT NULL::text, aliases text[] DEFAULT NULL::text[], evidence text[] DEFAULT NULL::text[])
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.graph_upsert_node(text,text,text,text[],text[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.graph_upsert_node(text,text,text,text[],text[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator;

CREATE FUNCTION pgfacts.history(subject bigint, predicate text)
    RETURNS TABLE(claim_id bigint, object_value jsonb, object_entity_id bigint, claim_text text, confidence real, valid_from timestamp with time zone, valid_to timestamp with time zone, recorded_at timestamp with time zone, retired_at timestamp with time zone, retired_reason text, superseded_by bigint, copied_from bigint)
    LANGUAGE sql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.history(bigint,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.history(bigint,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.import_abandon()
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.import_abandon() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.import_abandon() TO pgfacts_operator;

CREATE FUNCTION pgfacts.import_batch(batch_size integer DEFAULT NULL::integer, rejects_through bigint DEFAULT NULL::bigint, rejects_bytes bigint DEFAULT NULL::bigint)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.import_batch(integer,bigint,bigint) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.import_batch(integer,bigint,bigint) TO pgfacts_operator;

CREATE FUNCTION pgfacts.import_open(file_sha256 text, first_line text, file_name text DEFAULT NULL::text)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.import_open(text,text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.import_open(text,text,text) TO pgfacts_operator;

CREATE FUNCTION pgfacts.import_staged(first_line bigint DEFAULT 1, last_part boolean DEFAULT true)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.import_staged(bigint,boolean) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.import_staged(bigint,boolean) TO pgfacts_operator;

CREATE FUNCTION pgfacts.ingest(episode jsonb, claims jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.ingest(jsonb,jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.ingest(jsonb,jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator;

CREATE FUNCTION pgfacts.lift_rejection(rejection_id bigint)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.lift_rejection(bigint) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.lift_rejection(bigint) TO pgfacts_operator;

CREATE FUNCTION pgfacts.maintenance_jobs()
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.maintenance_jobs() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.maintenance_jobs() TO pgfacts_operator;

CREATE FUNCTION pgfacts.nearest(model text, query_vector vector, k integer DEFAULT 10, item_kinds text[] DEFAULT '{fact,claim}'::text[], scope text DEFAULT 'accessible'::text, valid_at timestamp with time zone DEFAULT NULL::timestamp with time zone, known_at timestamp with time zone DEFAULT NULL::timestamp with time zone, include_history boolean DEFAULT false)
    RETURNS TABLE(item_kind text, item_id bigint, ref text, content text, similarity real)
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.nearest(text,vector,integer,text[],text,timestamp with time zone,timestamp with time zone,boolean) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.nearest(text,vector,integer,text[],text,timestamp with time zone,timestamp with time zone,boolean) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.override(idempotency_key text, claim jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.override(text,jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.override(text,jsonb) TO pgfacts_operator;

CREATE FUNCTION pgfacts.parse_extraction_reply(reply text)
    RETURNS jsonb
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.parse_extraction_reply(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.parse_extraction_reply(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.prune_facts(keep integer, per text DEFAULT 'session'::text, keep_by text DEFAULT 'newest'::text, session_id text DEFAULT NULL::text, agent_id text DEFAULT NULL::text)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.prune_facts(integer,text,text,text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.prune_facts(integer,text,text,text,text) TO pgfacts_facts_manager, pgfacts_operator;

CREATE FUNCTION pgfacts.purge_audit_log(before timestamp with time zone DEFAULT NULL::timestamp with time zone)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.purge_audit_log(timestamp with time zone) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.purge_audit_log(timestamp with time zone) TO pgfacts_operator;

CREATE FUNCTION pgfacts.purge_source(source_kind text, source_ref text)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.purge_source(text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.purge_source(text,text) TO pgfacts_operator;

CREATE FUNCTION pgfacts.purge_tombstones(ttl_seconds integer DEFAULT NULL::integer, "limit" integer DEFAULT 1000)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.purge_tombstones(integer,integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.purge_tombstones(integer,integer) TO pgfacts_facts_manager, pgfacts_operator;

CREATE FUNCTION pgfacts.purge_tombstones_before(cutoff timestamp with time zone, include_unreconciled boolean DEFAULT false, key_prefix text DEFAULT NULL::text, "limit" integer DEFAULT 1000)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.purge_tombstones_before(timestamp with time zone,boolean,text,integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.purge_tombstones_before(timestamp with time zone,boolean,text,integer) TO pgfacts_operator;

CREATE FUNCTION pgfacts.read_facts(key_pattern text DEFAULT NULL::text, tags text[] DEFAULT NULL::text[], session_id text DEFAULT NULL::text, agent_id text DEFAULT NULL::text, "limit" integer DEFAULT 50, scope text DEFAULT 'accessible'::text, known_at timestamp with time zone DEFAULT NULL::timestamp with time zone)
    RETURNS TABLE(scope_key text, key text, value jsonb, shared boolean, fact_session_id text, fact_agent_id text, fact_tags text[], created_at timestamp with time zone, updated_at timestamp with time zone, etag bigint)
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    SET plan_cache_mode = force_generic_plan;
ALTER FUNCTION pgfacts.read_facts(text,text[],text,text,integer,text,timestamp with time zone) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.read_facts(text,text[],text,text,integer,text,timestamp with time zone) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.read_facts_by_scope_keys(scope_keys text[], "limit" integer DEFAULT 1000)
    RETURNS TABLE(scope_key text, key text, value jsonb, shared boolean, fact_session_id text, fact_agent_id text, fact_tags text[], created_at timestamp with time zone, updated_at timestamp with time zone, etag bigint)
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.read_facts_by_scope_keys(text[],integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.read_facts_by_scope_keys(text[],integer) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.read_facts_page(key_pattern text DEFAULT NULL::text, after text DEFAULT NULL::text, "limit" integer DEFAULT 1000, scope text DEFAULT 'accessible'::text)
    RETURNS TABLE(scope_key text, key text, value jsonb, shared boolean, fact_session_id text, fact_agent_id text, fact_tags text[], created_at timestamp with time zone, updated_at timestamp with time zone, etag bigint)
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.read_facts_page(text,text,integer,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.read_facts_page(text,text,integer,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.read_intake("limit" integer DEFAULT 100)
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.read_intake(integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.read_intake(integer) TO pgfacts_facts_manager, pgfacts_tuner;

CREATE FUNCTION pgfacts.rebuild_graph_projection()
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.rebuild_graph_projection() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.rebuild_graph_projection() TO pgfacts_facts_manager, pgfacts_operator;

CREATE FUNCTION pgfacts.record_memory(source_kind text, source_ref text, lines jsonb, occurred_at timestamp with time zone DEFAULT NULL::timestamp with time zone, trust text DEFAULT 'agent'::text, content_hash text DEFAULT NULL::text)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.record_memory(text,text,jsonb,timestamp with time zone,text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.record_memory(text,text,jsonb,timestamp with time zone,text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator;

CREATE FUNCTION pgfacts.redaction_placeholders()
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.redaction_placeholders() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.redaction_placeholders() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.register_embedding_model(model text, dimension integer)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.register_embedding_model(text,integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.register_embedding_model(text,integer) TO pgfacts_facts_manager, pgfacts_operator;

CREATE FUNCTION pgfacts.register_session(session_id text, parent_session_id text DEFAULT NULL::text, agent_id text DEFAULT NULL::text)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.register_session(text,text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.register_session(text,text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator;

CREATE FUNCTION pgfacts.reject_claim(candidate_id bigint, note text DEFAULT NULL::text)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.reject_claim(bigint,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.reject_claim(bigint,text) TO pgfacts_operator, pgfacts_reviewer;

CREATE FUNCTION pgfacts.reject_fact(candidate_id bigint, note text DEFAULT NULL::text)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.reject_fact(bigint,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.reject_fact(bigint,text) TO pgfacts_operator, pgfacts_reviewer;

CREATE FUNCTION pgfacts.release_extraction(event_id bigint, lease_token uuid)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.release_extraction(bigint,uuid) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.release_extraction(bigint,uuid) TO pgfacts_operator;

CREATE FUNCTION pgfacts.restore(claim_id bigint)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.restore(bigint) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.restore(bigint) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator;

CREATE FUNCTION pgfacts.retention_backlog()
    RETURNS TABLE(tenant text, episodes_due bigint, memories_due bigint)
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.retention_backlog() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.retention_backlog() TO pgfacts_operator;

CREATE FUNCTION pgfacts.retract(claim_id bigint)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.retract(bigint) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.retract(bigint) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator;

CREATE FUNCTION pgfacts.review_candidate(candidate_id bigint)
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.review_candidate(bigint) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.review_candidate(bigint) TO pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.review_key_prefixes()
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.review_key_prefixes() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.review_key_prefixes() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.review_queue("limit" integer DEFAULT 50)
    RETURNS TABLE(candidate_id bigint, held_at timestamp with time zone, held_because text, subject_id bigint, predicate text, object jsonb, object_entity_id bigint, text text, confidence real, valid_from timestamp with time zone, valid_to timestamp with time zone, quote text, locator jsonb, episode_id bigint, source_kind text, source_ref text, trust text, extractor text)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.review_queue(integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.review_queue(integer) TO pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.run_maintenance()
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.run_maintenance() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.run_maintenance() TO pgfacts_operator;

CREATE FUNCTION pgfacts.schedule_maintenance(schedules jsonb DEFAULT NULL::jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.schedule_maintenance(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.schedule_maintenance(jsonb) TO pgfacts_operator;

CREATE FUNCTION pgfacts.schema_version()
    RETURNS jsonb
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.schema_version() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.schema_version() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.search(query text, query_vector vector DEFAULT NULL::vector, model text DEFAULT NULL::text, "limit" integer DEFAULT 20, scope text DEFAULT 'accessible'::text, item_kinds text[] DEFAULT '{fact,claim}'::text[], key_prefix text DEFAULT NULL::text, tags text[] DEFAULT NULL::text[], intent text DEFAULT NULL::text, valid_at timestamp with time zone DEFAULT NULL::timestamp with time zone, known_at timestamp with time zone DEFAULT NULL::timestamp with time zone, text_weight real DEFAULT 1, vector_weight real DEFAULT 1)
    RETURNS TABLE(item_kind text, item_id bigint, ref text, key text, content text, value jsonb, current boolean, stale boolean, score double precision, text_rank integer, vector_rank integer, similarity real, valid_from timestamp with time zone, valid_to timestamp with time zone, recorded_at timestamp with time zone, retired_at timestamp with time zone)
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.search(text,vector,text,integer,text,text[],text,text[],text,timestamp with time zone,timestamp with time zone,real,real) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.search(text,vector,text,integer,text,text[],text,text[],text,timestamp with time zone,timestamp with time zone,real,real) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.search_claims(query text, min_confidence real DEFAULT NULL::real, include_history boolean DEFAULT false, "limit" integer DEFAULT 8)
    RETURNS TABLE(claim_id bigint, subject_id bigint, predicate text, object_value jsonb, claim_text text, confidence real, rank real, current boolean, stopped_believed_at timestamp with time zone)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.search_claims(text,real,boolean,integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.search_claims(text,real,boolean,integer) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.search_skills(query text, query_vector vector DEFAULT NULL::vector, model text DEFAULT NULL::text, "limit" integer DEFAULT 8)
    RETURNS TABLE(key text, name text, description text, score double precision)
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.search_skills(text,vector,text,integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.search_skills(text,vector,text,integer) TO pgfacts_agent, pgfacts_crawler, pgfacts_operator, pgfacts_tuner;

CREATE FUNCTION pgfacts.session_tree(session_id text DEFAULT NULL::text)
    RETURNS TABLE(tree_session_id text, parent_session_id text, depth integer, agent_id text, created_at timestamp with time zone, ended_at timestamp with time zone, deleted_at timestamp with time zone)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.session_tree(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.session_tree(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.set_context(tenant text, session_id text DEFAULT NULL::text, agent_id text DEFAULT NULL::text, agent_kind text DEFAULT 'agent'::text, parent_session_id text DEFAULT NULL::text, memory_scope text DEFAULT 'agent'::text)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.set_context(text,text,text,text,text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.set_context(text,text,text,text,text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.set_embeddings(model text, rows jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.set_embeddings(text,jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.set_embeddings(text,jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator;

CREATE FUNCTION pgfacts.set_redaction_placeholders(placeholders text[])
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.set_redaction_placeholders(text[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.set_redaction_placeholders(text[]) TO pgfacts_operator;

CREATE FUNCTION pgfacts.set_review_key_prefixes(prefixes text[])
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.set_review_key_prefixes(text[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.set_review_key_prefixes(text[]) TO pgfacts_operator;

CREATE FUNCTION pgfacts.set_setting(name text, value jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.set_setting(text,jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.set_setting(text,jsonb) TO pgfacts_operator;

CREATE FUNCTION pgfacts.similar_facts(scope_key text, k integer DEFAULT 8, model text DEFAULT NULL::text)
    RETURNS TABLE(similar_scope_key text, key text, value jsonb, similarity real, score double precision, mode text)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.similar_facts(text,integer,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.similar_facts(text,integer,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.spawn_tree(session_id text DEFAULT NULL::text)
    RETURNS SETOF text
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.spawn_tree(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.spawn_tree(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.store_fact(key text, value jsonb, tags text[] DEFAULT NULL::text[], shared boolean DEFAULT false, ttl_seconds integer DEFAULT NULL::integer)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.store_fact(text,jsonb,text[],boolean,integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.store_fact(text,jsonb,text[],boolean,integer) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator;

CREATE FUNCTION pgfacts.store_facts(facts jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.store_facts(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.store_facts(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator;

CREATE FUNCTION pgfacts.sync_graph_projection(max_changes integer DEFAULT 10000)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.sync_graph_projection(integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.sync_graph_projection(integer) TO pgfacts_facts_manager, pgfacts_operator;

CREATE FUNCTION pgfacts.sync_graph_projections(max_changes integer DEFAULT 10000)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.sync_graph_projections(integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.sync_graph_projections(integer) TO pgfacts_operator;

CREATE FUNCTION pgfacts.tombstone_stats(ttl_seconds integer DEFAULT NULL::integer)
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.tombstone_stats(integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.tombstone_stats(integer) TO pgfacts_facts_manager, pgfacts_operator, pgfacts_tuner;

CREATE FUNCTION pgfacts.tool_definitions()
    RETURNS jsonb
    LANGUAGE sql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.tool_definitions() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.tool_definitions() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.unbind_tenant_login(login name, tenant text)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.unbind_tenant_login(name,text) OWNER TO pgfacts_owner;

CREATE FUNCTION pgfacts.unschedule_maintenance()
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.unschedule_maintenance() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.unschedule_maintenance() TO pgfacts_operator;

CREATE FUNCTION pgfacts.validate_extraction(context jsonb, output jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.validate_extraction(jsonb,jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.validate_extraction(jsonb,jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts.verify_graph_projection()
    RETURNS TABLE(entity text, entity_id bigint, difference text)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, ag_catalog, pg_temp;
ALTER FUNCTION pgfacts.verify_graph_projection() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.verify_graph_projection() TO pgfacts_facts_manager, pgfacts_operator, pgfacts_tuner;

CREATE FUNCTION pgfacts.verify_slot(subject bigint, predicate text)
    RETURNS TABLE(difference text, claim jsonb)
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts.verify_slot(bigint,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts.verify_slot(bigint,text) TO pgfacts_facts_manager, pgfacts_operator, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.acts_for_any_tenant()
    RETURNS boolean
    LANGUAGE sql STABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.acts_for_any_tenant() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.acts_for_any_tenant() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.add_edge_evidence(tenant text, edge_id bigint, evidence text[], kind text, agent text, with_shared boolean, every_session boolean, sessions text[])
    RETURNS integer
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.add_edge_evidence(text,bigint,text[],text,text,boolean,boolean,text[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.add_edge_evidence(text,bigint,text[],text,text,boolean,boolean,text[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.add_entity_aliases(tenant text, entity bigint, aliases text[])
    RETURNS void
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.add_entity_aliases(text,bigint,text[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.add_entity_aliases(text,bigint,text[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.add_node_evidence(tenant text, node_id bigint, evidence text[], kind text, agent text, with_shared boolean, every_session boolean, sessions text[])
    RETURNS integer
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.add_node_evidence(text,bigint,text[],text,text,boolean,boolean,text[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.add_node_evidence(text,bigint,text[],text,text,boolean,boolean,text[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.agent_id_ok(agent_id text)
    RETURNS boolean
    LANGUAGE sql IMMUTABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.agent_id_ok(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.agent_id_ok(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.agent_kinds()
    RETURNS text[]
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.agent_kinds() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.agent_kinds() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.allowed_dimensions()
    RETURNS integer[]
    LANGUAGE sql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.allowed_dimensions() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.allowed_dimensions() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.append_audit(entries pgfacts_internal.audit_entry[], always boolean DEFAULT false)
    RETURNS void
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.append_audit(pgfacts_internal.audit_entry[],boolean) OWNER TO pgfacts_maintainer;
GRANT EXECUTE ON FUNCTION pgfacts_internal.append_audit(pgfacts_internal.audit_entry[],boolean) TO pgfacts_owner;

CREATE FUNCTION pgfacts_internal.apply_decision(slot pgfacts_internal.slot_picture, c pgfacts_internal.claim_input, d pgfacts_internal.claim_decision, new_id bigint, tenant text, episode pgfacts_internal.episodes, episode_trust integer, write_at timestamp with time zone)
    RETURNS pgfacts_internal.slot_picture
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.apply_decision(pgfacts_internal.slot_picture,pgfacts_internal.claim_input,pgfacts_internal.claim_decision,bigint,text,pgfacts_internal.episodes,integer,timestamp with time zone) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.apply_decision(pgfacts_internal.slot_picture,pgfacts_internal.claim_input,pgfacts_internal.claim_decision,bigint,text,pgfacts_internal.episodes,integer,timestamp with time zone) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.archive_fact_version(version pgfacts_internal.facts, known_until timestamp with time zone)
    RETURNS void
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.archive_fact_version(pgfacts_internal.facts,timestamp with time zone) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.archive_fact_version(pgfacts_internal.facts,timestamp with time zone) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.arg_bool(args jsonb, name text)
    RETURNS boolean
    LANGUAGE sql STABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.arg_bool(jsonb,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.arg_bool(jsonb,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.arg_int(args jsonb, name text)
    RETURNS integer
    LANGUAGE sql STABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.arg_int(jsonb,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.arg_int(jsonb,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.arg_number(args jsonb, name text)
    RETURNS double precision
    LANGUAGE sql STABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.arg_number(jsonb,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.arg_number(jsonb,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.arg_scalar(args jsonb, name text, json_type text, expected text)
    RETURNS text
    LANGUAGE sql STABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.arg_scalar(jsonb,text,text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.arg_scalar(jsonb,text,text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.arg_text(args jsonb, name text)
    RETURNS text
    LANGUAGE sql STABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.arg_text(jsonb,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.arg_text(jsonb,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.arg_text_array(args jsonb, name text)
    RETURNS text[]
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.arg_text_array(jsonb,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.arg_text_array(jsonb,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.arg_timestamp(args jsonb, name text)
    RETURNS timestamp with time zone
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.arg_timestamp(jsonb,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.arg_timestamp(jsonb,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.arg_vector(args jsonb)
    RETURNS vector
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.arg_vector(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.arg_vector(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.assertion_of(subject_id bigint, predicate text, object_value jsonb, object_entity_id bigint)
    RETURNS text
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.assertion_of(bigint,text,jsonb,bigint) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.assertion_of(bigint,text,jsonb,bigint) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.audit_claim_state(decision text, episodes jsonb, subject_id bigint, predicate text, assertion text, object_value jsonb, object_entity_id bigint, claim_text text, confidence real, valid tstzrange, system_time tstzrange, retired_reason text)
    RETURNS jsonb
    LANGUAGE sql STABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.audit_claim_state(text,jsonb,bigint,text,text,jsonb,bigint,text,real,tstzrange,tstzrange,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.audit_claim_state(text,jsonb,bigint,text,text,jsonb,bigint,text,real,tstzrange,tstzrange,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.audit_claims_moved()
    RETURNS trigger
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.audit_claims_moved() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.audit_claims_moved() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.audit_digest(content text)
    RETURNS text
    LANGUAGE sql STABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.audit_digest(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.audit_digest(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.audit_enabled(tenant text)
    RETURNS boolean
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.audit_enabled(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.audit_enabled(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.audit_episode_committed()
    RETURNS trigger
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.audit_episode_committed() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.audit_episode_committed() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.audit_fact_state(etag bigint, shared boolean, tags text[], deleted_at timestamp with time zone, value jsonb)
    RETURNS jsonb
    LANGUAGE sql STABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.audit_fact_state(bigint,boolean,text[],timestamp with time zone,jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.audit_fact_state(bigint,boolean,text[],timestamp with time zone,jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.audit_facts_deleted()
    RETURNS trigger
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.audit_facts_deleted() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.audit_facts_deleted() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.audit_facts_inserted()
    RETURNS trigger
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.audit_facts_inserted() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.audit_facts_inserted() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.audit_facts_updated()
    RETURNS trigger
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.audit_facts_updated() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.audit_facts_updated() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.audit_graph_deleted()
    RETURNS trigger
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.audit_graph_deleted() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.audit_graph_deleted() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.audit_graph_entries(entity text, change text, old_rows jsonb[], new_rows jsonb[])
    RETURNS pgfacts_internal.audit_entry[]
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.audit_graph_entries(text,text,jsonb[],jsonb[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.audit_graph_entries(text,text,jsonb[],jsonb[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.audit_graph_inserted()
    RETURNS trigger
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.audit_graph_inserted() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.audit_graph_inserted() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.audit_graph_state(entity text, graph_row jsonb)
    RETURNS jsonb
    LANGUAGE sql STABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.audit_graph_state(text,jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.audit_graph_state(text,jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.audit_graph_updated()
    RETURNS trigger
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.audit_graph_updated() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.audit_graph_updated() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.audit_log_guard()
    RETURNS trigger
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.audit_log_guard() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.audit_log_guard() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.audit_login_changed()
    RETURNS trigger
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.audit_login_changed() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.audit_login_changed() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.audit_memory_recorded()
    RETURNS trigger
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.audit_memory_recorded() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.audit_memory_recorded() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.audit_model_registered()
    RETURNS trigger
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.audit_model_registered() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.audit_model_registered() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.audit_notes_taken()
    RETURNS trigger
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.audit_notes_taken() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.audit_notes_taken() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.audit_operations()
    RETURNS text[]
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.audit_operations() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.audit_operations() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.audit_redaction_placeholders_changed()
    RETURNS trigger
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.audit_redaction_placeholders_changed() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.audit_redaction_placeholders_changed() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.audit_retention_cutoff(tenant text)
    RETURNS timestamp with time zone
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.audit_retention_cutoff(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.audit_retention_cutoff(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.audit_retraction_committed()
    RETURNS trigger
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.audit_retraction_committed() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.audit_retraction_committed() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.audit_setting_changed()
    RETURNS trigger
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.audit_setting_changed() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.audit_setting_changed() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.audit_source_purged()
    RETURNS trigger
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.audit_source_purged() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.audit_source_purged() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.audit_sourced_claims(episode_id bigint)
    RETURNS bigint[]
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.audit_sourced_claims(bigint) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.audit_sourced_claims(bigint) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.audit_sources_added()
    RETURNS trigger
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.audit_sources_added() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.audit_sources_added() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.audit_tombstone_operation()
    RETURNS text
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.audit_tombstone_operation() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.audit_tombstone_operation() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.audit_tool(args jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.audit_tool(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.audit_tool(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.await_commits(tenant text)
    RETURNS void
    LANGUAGE sql VOLATILE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.await_commits(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.await_commits(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.await_fact_writes(tenant text)
    RETURNS void
    LANGUAGE sql VOLATILE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.await_fact_writes(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.await_fact_writes(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.await_lock_holders(key bigint, exclusive boolean)
    RETURNS void
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.await_lock_holders(bigint,boolean) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.await_lock_holders(bigint,boolean) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.bulk_checks(items jsonb, kind text, session text, max_bytes bigint, key_prefix text)
    RETURNS TABLE(ord bigint, item jsonb, scope_key text, reason text)
    LANGUAGE sql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.bulk_checks(jsonb,text,text,bigint,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.bulk_checks(jsonb,text,text,bigint,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.bulk_checks(items jsonb[], kind text, session text, max_bytes bigint, key_prefix text)
    RETURNS TABLE(ord bigint, item jsonb, scope_key text, reason text)
    LANGUAGE sql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.bulk_checks(jsonb[],text,text,bigint,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.bulk_checks(jsonb[],text,text,bigint,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.bulk_error_is_fatal(sqlstate text)
    RETURNS boolean
    LANGUAGE sql IMMUTABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.bulk_error_is_fatal(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.bulk_error_is_fatal(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.bulk_failure_message(reason text, item jsonb, kind text, max_bytes bigint, key_prefix text)
    RETURNS text
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.bulk_failure_message(text,jsonb,text,bigint,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.bulk_failure_message(text,jsonb,text,bigint,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.bulk_input(tenant text, records jsonb, source bytea, sha256 text, expected_count integer, OUT items jsonb, OUT source_kind text, OUT digest text)
    RETURNS record
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.bulk_input(text,jsonb,bytea,text,integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.bulk_input(text,jsonb,bytea,text,integer) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.bulk_parse_source(source bytea)
    RETURNS jsonb
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.bulk_parse_source(bytea) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.bulk_parse_source(bytea) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.bulk_report(input_count integer, source_kind text, digest text, accepted integer, failed_ords bigint[], failed_reasons text[], failed_messages text[], failed_items jsonb[], write_failures jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.bulk_report(integer,text,text,integer,bigint[],text[],text[],jsonb[],jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.bulk_report(integer,text,text,integer,bigint[],text[],text[],jsonb[],jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.bulk_store_facts_tool(args jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.bulk_store_facts_tool(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.bulk_store_facts_tool(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.bulk_write(items jsonb[], ords bigint[], tenant text, session text, agent text, fresh boolean[] DEFAULT NULL::boolean[])
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.bulk_write(jsonb[],bigint[],text,text,text,boolean[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.bulk_write(jsonb[],bigint[],text,text,text,boolean[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.camel_case(name text)
    RETURNS text
    LANGUAGE sql IMMUTABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.camel_case(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.camel_case(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.camel_keys(doc jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.camel_keys(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.camel_keys(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.candidate_claim(c pgfacts_internal.claim_input)
    RETURNS jsonb
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.candidate_claim(pgfacts_internal.claim_input) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.candidate_claim(pgfacts_internal.claim_input) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.candidate_search_hits(tenant text, query text, lim integer)
    RETURNS TABLE(item_id bigint, ref text, key text, content text, value jsonb, score real, valid_from timestamp with time zone, valid_to timestamp with time zone, recorded_at timestamp with time zone)
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.candidate_search_hits(text,text,integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.candidate_search_hits(text,text,integer) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.check_agent_id(agent_id text, what text DEFAULT 'agent_id'::text)
    RETURNS text
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.check_agent_id(text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.check_agent_id(text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.check_aliases(aliases text[])
    RETURNS text[]
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.check_aliases(text[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.check_aliases(text[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.check_audit_filter(since timestamp with time zone, until timestamp with time zone, operation text, target text, "limit" integer)
    RETURNS void
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.check_audit_filter(timestamp with time zone,timestamp with time zone,text,text,integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.check_audit_filter(timestamp with time zone,timestamp with time zone,text,text,integer) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.check_bytes(input text, what text, max_bytes integer)
    RETURNS text
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.check_bytes(text,text,integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.check_bytes(text,text,integer) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.check_claims(tenant text, claims jsonb, occurred_at timestamp with time zone)
    RETURNS pgfacts_internal.claim_input[]
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp
    SET enable_seqscan = off
    SET enable_hashjoin = off
    SET enable_mergejoin = off
    SET plan_cache_mode = force_generic_plan;
ALTER FUNCTION pgfacts_internal.check_claims(text,jsonb,timestamp with time zone) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.check_claims(text,jsonb,timestamp with time zone) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.check_confidence(confidence double precision, what text)
    RETURNS double precision
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.check_confidence(double precision,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.check_confidence(double precision,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.check_embedding_rows(rows jsonb)
    RETURNS void
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.check_embedding_rows(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.check_embedding_rows(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.check_episode(episode jsonb)
    RETURNS void
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.check_episode(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.check_episode(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.check_extraction_context(context jsonb)
    RETURNS void
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.check_extraction_context(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.check_extraction_context(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.check_extractor(extractor text)
    RETURNS void
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.check_extractor(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.check_extractor(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.check_graph_name(kind text, name text)
    RETURNS text
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.check_graph_name(text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.check_graph_name(text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.check_item_kinds(item_kinds text[])
    RETURNS void
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.check_item_kinds(text[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.check_item_kinds(text[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.check_key(key text, what text DEFAULT 'key'::text)
    RETURNS text
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.check_key(text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.check_key(text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.check_limit(value integer, name text, low integer, high integer)
    RETURNS integer
    LANGUAGE sql IMMUTABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.check_limit(integer,text,integer,integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.check_limit(integer,text,integer,integer) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.check_memory_lines(lines jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.check_memory_lines(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.check_memory_lines(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.check_new_model(for_tenant text, dimension integer)
    RETURNS void
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.check_new_model(text,integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.check_new_model(text,integer) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.check_node_key(node_key text, what text)
    RETURNS text
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.check_node_key(text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.check_node_key(text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.check_parent(session_id text, parent_session_id text)
    RETURNS void
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.check_parent(text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.check_parent(text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.check_predicate(predicate text)
    RETURNS text
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.check_predicate(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.check_predicate(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.check_prune_choice(value text, what text, choices text[])
    RETURNS text
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.check_prune_choice(text,text,text[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.check_prune_choice(text,text,text[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.check_query(query text)
    RETURNS text
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.check_query(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.check_query(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.check_search(query text, query_vector vector, model text, lim integer, item_kinds text[], text_weight real, vector_weight real)
    RETURNS void
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.check_search(text,vector,text,integer,text[],real,real) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.check_search(text,vector,text,integer,text[],real,real) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.check_session_id(session_id text, what text)
    RETURNS void
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.check_session_id(text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.check_session_id(text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.check_setting_value(definition pgfacts_internal.setting_definitions, value jsonb)
    RETURNS void
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.check_setting_value(pgfacts_internal.setting_definitions,jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.check_setting_value(pgfacts_internal.setting_definitions,jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.check_source(source_kind text, source_ref text)
    RETURNS void
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.check_source(text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.check_source(text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.check_tags(tags text[], what text DEFAULT 'tags'::text)
    RETURNS text[]
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.check_tags(text[],text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.check_tags(text[],text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.check_tenant(tenant text)
    RETURNS text
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.check_tenant(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.check_tenant(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.check_tenant_login(tenant text)
    RETURNS void
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.check_tenant_login(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.check_tenant_login(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.check_text(input text, what text, max_chars integer)
    RETURNS text
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.check_text(text,text,integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.check_text(text,text,integer) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.check_trust_of_kind(trust text, kind text)
    RETURNS void
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.check_trust_of_kind(text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.check_trust_of_kind(text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.check_vector(query_vector vector, dimension integer)
    RETURNS halfvec
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.check_vector(vector,integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.check_vector(vector,integer) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.checked_claims(tenant text, claims jsonb, occurred_at timestamp with time zone)
    RETURNS pgfacts_internal.claim_input[]
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.checked_claims(text,jsonb,timestamp with time zone) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.checked_claims(text,jsonb,timestamp with time zone) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.checked_context_kind()
    RETURNS text
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.checked_context_kind() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.checked_context_kind() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.checked_context_parent()
    RETURNS text
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.checked_context_parent() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.checked_context_parent() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.checked_context_session()
    RETURNS text
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.checked_context_session() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.checked_context_session() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.checked_context_tenant()
    RETURNS text
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.checked_context_tenant() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.checked_context_tenant() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.claim_answers(for_tenant text, system_time tstzrange, valid tstzrange, retired_reason text, expires_at timestamp with time zone, assertion text, history boolean, valid_at timestamp with time zone, known_at timestamp with time zone, any_valid boolean DEFAULT false)
    RETURNS boolean
    LANGUAGE sql STABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.claim_answers(text,tstzrange,tstzrange,text,timestamp with time zone,text,boolean,timestamp with time zone,timestamp with time zone,boolean) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.claim_answers(text,tstzrange,tstzrange,text,timestamp with time zone,text,boolean,timestamp with time zone,timestamp with time zone,boolean) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_searcher, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.claim_document(tenant text, claim_text text, object_value jsonb, predicate text, subject_id bigint, object_entity_id bigint)
    RETURNS text
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.claim_document(text,text,jsonb,text,bigint,bigint) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.claim_document(text,text,jsonb,text,bigint,bigint) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.claim_edge_doc(tenant text, claim_id bigint, subject bigint, predicate text, object_entity bigint, confidence real, system_time tstzrange)
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.claim_edge_doc(text,bigint,bigint,text,bigint,real,tstzrange) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.claim_edge_doc(text,bigint,bigint,text,bigint,real,tstzrange) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.claim_edge_key(predicate text)
    RETURNS text
    LANGUAGE sql IMMUTABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.claim_edge_key(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.claim_edge_key(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.claim_edges_between(tenant text, entities bigint[], valid_at timestamp with time zone, known_at timestamp with time zone)
    RETURNS TABLE(from_key text, predicate_key text, to_key text, claim_id bigint, edge jsonb)
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.claim_edges_between(text,bigint[],timestamp with time zone,timestamp with time zone) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.claim_edges_between(text,bigint[],timestamp with time zone,timestamp with time zone) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.claim_in_view(system_time tstzrange, valid tstzrange, retired_reason text, expires_at timestamp with time zone, history boolean, valid_at timestamp with time zone, known_at timestamp with time zone, any_valid boolean DEFAULT false)
    RETURNS boolean
    LANGUAGE sql STABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.claim_in_view(tstzrange,tstzrange,text,timestamp with time zone,boolean,timestamp with time zone,timestamp with time zone,boolean) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.claim_in_view(tstzrange,tstzrange,text,timestamp with time zone,boolean,timestamp with time zone,timestamp with time zone,boolean) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_searcher, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.claim_label(tenant text, source text, subject bigint, predicate text, OUT label text, OUT stale boolean)
    RETURNS record
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.claim_label(text,text,bigint,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.claim_label(text,text,bigint,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.claim_node_name(tenant text, key text)
    RETURNS text
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.claim_node_name(text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.claim_node_name(text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.claim_observations(tenant text, claim_id bigint)
    RETURNS integer
    LANGUAGE sql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.claim_observations(text,bigint) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.claim_observations(text,bigint) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.claim_outcome(claim_position integer, d pgfacts_internal.claim_decision, slot pgfacts_internal.slot_picture, new_id bigint)
    RETURNS jsonb
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.claim_outcome(integer,pgfacts_internal.claim_decision,pgfacts_internal.slot_picture,bigint) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.claim_outcome(integer,pgfacts_internal.claim_decision,pgfacts_internal.slot_picture,bigint) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.claim_reach(tenant text, start bigint[], depth integer, valid_at timestamp with time zone, known_at timestamp with time zone)
    RETURNS TABLE(entity_id bigint, distance integer)
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.claim_reach(text,bigint[],integer,timestamp with time zone,timestamp with time zone) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.claim_reach(text,bigint[],integer,timestamp with time zone,timestamp with time zone) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.claim_retracted(for_tenant text, assertion text, known_at timestamp with time zone)
    RETURNS boolean
    LANGUAGE sql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.claim_retracted(text,text,timestamp with time zone) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.claim_retracted(text,text,timestamp with time zone) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_searcher, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.claim_size_problem(c jsonb, predicate text, object jsonb)
    RETURNS text
    LANGUAGE sql IMMUTABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.claim_size_problem(jsonb,text,jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.claim_size_problem(jsonb,text,jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.claim_source(tenant text, ref text, OUT source text, OUT claim_subject bigint, OUT claim_predicate text)
    RETURNS record
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.claim_source(text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.claim_source(text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.claim_text_candidates(for_tenant text, match tsquery, words tsquery[], negated boolean, floor real, history boolean, valid_at timestamp with time zone, known_at timestamp with time zone, lim integer, any_valid boolean DEFAULT false, audit boolean DEFAULT false, pairs tsquery DEFAULT NULL::tsquery)
    RETURNS TABLE(item_id bigint, score real)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    SET plan_cache_mode = force_generic_plan;
ALTER FUNCTION pgfacts_internal.claim_text_candidates(text,tsquery,tsquery[],boolean,real,boolean,timestamp with time zone,timestamp with time zone,integer,boolean,boolean,tsquery) OWNER TO pgfacts_searcher;
GRANT EXECUTE ON FUNCTION pgfacts_internal.claim_text_candidates(text,tsquery,tsquery[],boolean,real,boolean,timestamp with time zone,timestamp with time zone,integer,boolean,boolean,tsquery) TO pgfacts_owner;

CREATE FUNCTION pgfacts_internal.claim_trust(tenant text, claim_id bigint)
    RETURNS integer
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.claim_trust(text,bigint) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.claim_trust(text,bigint) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.claim_unexpired(expires_at timestamp with time zone, at timestamp with time zone)
    RETURNS boolean
    LANGUAGE sql STABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.claim_unexpired(timestamp with time zone,timestamp with time zone) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.claim_unexpired(timestamp with time zone,timestamp with time zone) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.claimed_kind()
    RETURNS text
    LANGUAGE sql STABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.claimed_kind() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.claimed_kind() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.claims_set_search_doc()
    RETURNS trigger
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.claims_set_search_doc() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.claims_set_search_doc() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.commit_lock_key(tenant text)
    RETURNS bigint
    LANGUAGE sql VOLATILE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.commit_lock_key(text) OWNER TO pgfacts_owner;

CREATE FUNCTION pgfacts_internal.confidence_floor(tenant text)
    RETURNS real
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.confidence_floor(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.confidence_floor(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.context_agent()
    RETURNS text
    LANGUAGE sql STABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.context_agent() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.context_agent() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.context_kind()
    RETURNS text
    LANGUAGE sql STABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.context_kind() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.context_kind() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.context_memory_scope()
    RETURNS text
    LANGUAGE sql STABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.context_memory_scope() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.context_memory_scope() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.context_parent()
    RETURNS text
    LANGUAGE sql STABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.context_parent() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.context_parent() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.context_session()
    RETURNS text
    LANGUAGE sql STABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.context_session() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.context_session() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.context_setting(name text)
    RETURNS text
    LANGUAGE sql STABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.context_setting(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.context_setting(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.context_setting_names()
    RETURNS text[]
    LANGUAGE sql IMMUTABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.context_setting_names() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.context_setting_names() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.context_tenant()
    RETURNS text
    LANGUAGE sql STABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.context_tenant() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.context_tenant() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.copy_row(source pgfacts_internal.slot_row, valid tstzrange, write_at timestamp with time zone)
    RETURNS pgfacts_internal.slot_row
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.copy_row(pgfacts_internal.slot_row,tstzrange,timestamp with time zone) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.copy_row(pgfacts_internal.slot_row,tstzrange,timestamp with time zone) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.corroborate_rows(slot pgfacts_internal.slot_picture, positions integer[], line pgfacts_internal.claim_sources, episode_trust integer, episode_expiry timestamp with time zone)
    RETURNS pgfacts_internal.slot_picture
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.corroborate_rows(pgfacts_internal.slot_picture,integer[],pgfacts_internal.claim_sources,integer,timestamp with time zone) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.corroborate_rows(pgfacts_internal.slot_picture,integer[],pgfacts_internal.claim_sources,integer,timestamp with time zone) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.corroboration(slot pgfacts_internal.slot_picture, c pgfacts_internal.claim_input, extent tstzrange, OUT corroborated integer[], OUT pieces tstzrange[])
    RETURNS record
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.corroboration(pgfacts_internal.slot_picture,pgfacts_internal.claim_input,tstzrange) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.corroboration(pgfacts_internal.slot_picture,pgfacts_internal.claim_input,tstzrange) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.counted(counters jsonb, outcome text)
    RETURNS jsonb
    LANGUAGE sql STABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.counted(jsonb,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.counted(jsonb,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.create_graph_projection(graph text)
    RETURNS void
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, ag_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.create_graph_projection(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.create_graph_projection(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.current_claim_edges(tenant text, wanted_key text, from_key text, to_key text, min_confidence double precision, lim integer)
    RETURNS TABLE(edge_from_key text, edge_predicate text, edge_predicate_key text, edge_to_key text, confidence double precision, observations integer, evidence text[], first_seen timestamp with time zone)
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.current_claim_edges(text,text,text,text,double precision,integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.current_claim_edges(text,text,text,text,double precision,integer) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.decide_claim(slot pgfacts_internal.slot_picture, c pgfacts_internal.claim_input, episode_trust integer, floor real, replay boolean)
    RETURNS pgfacts_internal.claim_decision
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.decide_claim(pgfacts_internal.slot_picture,pgfacts_internal.claim_input,integer,real,boolean) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.decide_claim(pgfacts_internal.slot_picture,pgfacts_internal.claim_input,integer,real,boolean) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.decide_event(c pgfacts_internal.claim_input)
    RETURNS pgfacts_internal.claim_decision
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.decide_event(pgfacts_internal.claim_input) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.decide_event(pgfacts_internal.claim_input) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.decide_fact(candidate_id bigint, note text, approve boolean)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.decide_fact(bigint,text,boolean) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.decide_fact(bigint,text,boolean) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.decide_many(slot pgfacts_internal.slot_picture, c pgfacts_internal.claim_input)
    RETURNS pgfacts_internal.claim_decision
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.decide_many(pgfacts_internal.slot_picture,pgfacts_internal.claim_input) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.decide_many(pgfacts_internal.slot_picture,pgfacts_internal.claim_input) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.decide_one(slot pgfacts_internal.slot_picture, c pgfacts_internal.claim_input, episode_trust integer)
    RETURNS pgfacts_internal.claim_decision
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.decide_one(pgfacts_internal.slot_picture,pgfacts_internal.claim_input,integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.decide_one(pgfacts_internal.slot_picture,pgfacts_internal.claim_input,integer) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.delete_fact_tool(args jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.delete_fact_tool(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.delete_fact_tool(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.delete_facts_by_pattern(tenant text, key text, kind text, caller text, agent text, manager boolean, scope text)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.delete_facts_by_pattern(text,text,text,text,text,boolean,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.delete_facts_by_pattern(text,text,text,text,text,boolean,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.delete_session_tool(args jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.delete_session_tool(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.delete_session_tool(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.dimension_index(dimension integer)
    RETURNS TABLE(index_name text, valid boolean)
    LANGUAGE sql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.dimension_index(integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.dimension_index(integer) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.dimension_index_sql(dimension integer, build_concurrently boolean)
    RETURNS text
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.dimension_index_sql(integer,boolean) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.dimension_index_sql(integer,boolean) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.document_vector(doc text)
    RETURNS tsvector
    LANGUAGE sql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.document_vector(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.document_vector(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.doubled_when_quoted(input text)
    RETURNS integer
    LANGUAGE sql IMMUTABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.doubled_when_quoted(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.doubled_when_quoted(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.edge_answer(edge pgfacts_internal.graph_edges, from_node text, to_node text, outcome text)
    RETURNS jsonb
    LANGUAGE sql STABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.edge_answer(pgfacts_internal.graph_edges,text,text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.edge_answer(pgfacts_internal.graph_edges,text,text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.embedding_backlog_all(for_model text)
    RETURNS TABLE(tenant text, queued bigint, retry bigint, failed bigint, oldest_enqueued timestamp with time zone)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.embedding_backlog_all(text) OWNER TO pgfacts_maintainer;
GRANT EXECUTE ON FUNCTION pgfacts_internal.embedding_backlog_all(text) TO pgfacts_operator;

CREATE FUNCTION pgfacts_internal.embedding_error_codes()
    RETURNS integer[]
    LANGUAGE sql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.embedding_error_codes() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.embedding_error_codes() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.embedding_problem(item jsonb, dims integer)
    RETURNS text
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.embedding_problem(jsonb,integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.embedding_problem(jsonb,integer) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.embeds(tenant text)
    RETURNS boolean
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.embeds(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.embeds(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.enqueue_item(for_tenant text, item_kind text, item_id bigint)
    RETURNS void
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.enqueue_item(text,text,bigint) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.enqueue_item(text,text,bigint) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.enqueue_tenant(for_tenant text)
    RETURNS bigint
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.enqueue_tenant(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.enqueue_tenant(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.ensure_session(tenant text, session_id text, parent_session_id text, agent_id text, for_write boolean)
    RETURNS void
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.ensure_session(text,text,text,text,boolean) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.ensure_session(text,text,text,text,boolean) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.entity_node_doc(tenant text, entity_id bigint, distance integer)
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.entity_node_doc(text,bigint,integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.entity_node_doc(text,bigint,integer) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.entity_node_key(entity_id bigint)
    RETURNS text
    LANGUAGE sql IMMUTABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.entity_node_key(bigint) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.entity_node_key(bigint) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.entity_of_node_key(node_key text)
    RETURNS bigint
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.entity_of_node_key(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.entity_of_node_key(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.entity_refresh_claim_documents()
    RETURNS trigger
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.entity_refresh_claim_documents() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.entity_refresh_claim_documents() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.entity_seeds(tenant text, seeds text[])
    RETURNS bigint[]
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.entity_seeds(text,text[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.entity_seeds(text,text[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.episode_claim_of(c pgfacts_internal.claim_input, d pgfacts_internal.claim_decision, slot pgfacts_internal.slot_picture)
    RETURNS pgfacts_internal.episode_claim
    LANGUAGE sql IMMUTABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.episode_claim_of(pgfacts_internal.claim_input,pgfacts_internal.claim_decision,pgfacts_internal.slot_picture) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.episode_claim_of(pgfacts_internal.claim_input,pgfacts_internal.claim_decision,pgfacts_internal.slot_picture) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.episode_expiry(episode jsonb)
    RETURNS timestamp with time zone
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.episode_expiry(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.episode_expiry(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.expire_facts_in(only_tenant text, max_rows integer)
    RETURNS integer
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.expire_facts_in(text,integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.expire_facts_in(text,integer) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.extracted_claim(fact jsonb, context jsonb, OUT claim jsonb, OUT reason text, OUT notes text[])
    RETURNS record
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.extracted_claim(jsonb,jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.extracted_claim(jsonb,jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.extracted_extras(fact jsonb, context jsonb, cited text[], subject jsonb, predicate jsonb, OUT extras jsonb, OUT notes text[])
    RETURNS record
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.extracted_extras(jsonb,jsonb,text[],jsonb,jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.extracted_extras(jsonb,jsonb,text[],jsonb,jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.extraction_backlog_all()
    RETURNS TABLE(tenant text, due bigint, ready bigint, leased bigint, failed bigint, oldest_due timestamp with time zone)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.extraction_backlog_all() OWNER TO pgfacts_maintainer;
GRANT EXECUTE ON FUNCTION pgfacts_internal.extraction_backlog_all() TO pgfacts_operator;

CREATE FUNCTION pgfacts_internal.extraction_episode(held pgfacts_internal.extraction_events, extractor text, claims jsonb)
    RETURNS bigint
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.extraction_episode(pgfacts_internal.extraction_events,text,jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.extraction_episode(pgfacts_internal.extraction_events,text,jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.extraction_event_json(e pgfacts_internal.extraction_events)
    RETURNS jsonb
    LANGUAGE sql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.extraction_event_json(pgfacts_internal.extraction_events) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.extraction_event_json(pgfacts_internal.extraction_events) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.extraction_events_tool(args jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.extraction_events_tool(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.extraction_events_tool(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.extraction_health_all(for_tenant text)
    RETURNS jsonb
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.extraction_health_all(text) OWNER TO pgfacts_maintainer;
GRANT EXECUTE ON FUNCTION pgfacts_internal.extraction_health_all(text) TO pgfacts_operator;

CREATE FUNCTION pgfacts_internal.extraction_live_facts(for_tenant text, entities jsonb)
    RETURNS jsonb
    LANGUAGE sql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.extraction_live_facts(text,jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.extraction_live_facts(text,jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.extraction_output_schema()
    RETURNS jsonb
    LANGUAGE sql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.extraction_output_schema() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.extraction_output_schema() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.extraction_status_tool(args jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.extraction_status_tool(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.extraction_status_tool(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.extractor_name()
    RETURNS text
    LANGUAGE sql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.extractor_name() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.extractor_name() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.fact_content(key text, value jsonb)
    RETURNS text
    LANGUAGE sql IMMUTABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.fact_content(text,jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.fact_content(text,jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_searcher, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.fact_history_tool(args jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.fact_history_tool(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.fact_history_tool(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.fact_matches(key text, tags text[], session_id text, agent_id text, like_key text, want_tags text[], want_session text, want_agent text)
    RETURNS boolean
    LANGUAGE sql IMMUTABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.fact_matches(text,text[],text,text,text,text[],text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.fact_matches(text,text[],text,text,text,text[],text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.fact_neighbours(for_tenant text, fact_id bigint, n integer, kind text, with_shared boolean, every_session boolean, sessions text[])
    RETURNS TABLE(side integer, ref text, key text, content text)
    LANGUAGE sql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.fact_neighbours(text,bigint,integer,text,boolean,boolean,text[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.fact_neighbours(text,bigint,integer,text,boolean,boolean,text[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.fact_problem(item jsonb, kind text, session text, max_bytes bigint)
    RETURNS text
    LANGUAGE sql IMMUTABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.fact_problem(jsonb,text,text,bigint) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.fact_problem(jsonb,text,text,bigint) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.fact_problem_words(problem text, item jsonb, kind text, max_bytes bigint, OUT message text, OUT hint text)
    RETURNS record
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.fact_problem_words(text,jsonb,text,bigint) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.fact_problem_words(text,jsonb,text,bigint) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.fact_review_approve_tool(args jsonb)
    RETURNS jsonb
    LANGUAGE sql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.fact_review_approve_tool(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.fact_review_approve_tool(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.fact_review_queue_tool(args jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.fact_review_queue_tool(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.fact_review_queue_tool(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.fact_review_reject_tool(args jsonb)
    RETURNS jsonb
    LANGUAGE sql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.fact_review_reject_tool(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.fact_review_reject_tool(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.fact_rows(items jsonb[], for_tenant text, session text, agent text)
    RETURNS TABLE(ord bigint, tenant text, scope_key text, key text, value jsonb, shared boolean, session_id text, agent_id text, tags text[], writer_kind text, expires_at timestamp with time zone)
    LANGUAGE sql STABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.fact_rows(jsonb[],text,text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.fact_rows(jsonb[],text,text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.fact_scope(shared boolean, session_id text)
    RETURNS text
    LANGUAGE sql IMMUTABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.fact_scope(boolean,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.fact_scope(boolean,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_searcher, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.fact_search_doc(key text, value jsonb, tags text[])
    RETURNS tsvector
    LANGUAGE sql STABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.fact_search_doc(text,jsonb,text[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.fact_search_doc(text,jsonb,text[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_searcher, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.fact_source_readable(source text, kind text, with_shared boolean, every_session boolean, sessions text[])
    RETURNS boolean
    LANGUAGE sql STABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.fact_source_readable(text,text,boolean,boolean,text[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.fact_source_readable(text,text,boolean,boolean,text[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.fact_superseded(for_tenant text, scope_key text)
    RETURNS boolean
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.fact_superseded(text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.fact_superseded(text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.fact_text_candidates(for_tenant text, kind text, with_shared boolean, every_session boolean, sessions text[], match tsquery, words tsquery[], negated boolean, key_prefix text, want_tags text[], known_at timestamp with time zone, lim integer, pairs tsquery DEFAULT NULL::tsquery)
    RETURNS TABLE(item_id bigint, version_id bigint, score real)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    SET plan_cache_mode = force_generic_plan;
ALTER FUNCTION pgfacts_internal.fact_text_candidates(text,text,boolean,boolean,text[],tsquery,tsquery[],boolean,text,text[],timestamp with time zone,integer,tsquery) OWNER TO pgfacts_searcher;
GRANT EXECUTE ON FUNCTION pgfacts_internal.fact_text_candidates(text,text,boolean,boolean,text[],tsquery,tsquery[],boolean,text,text[],timestamp with time zone,integer,tsquery) TO pgfacts_owner;

CREATE FUNCTION pgfacts_internal.fact_version_vector_candidates(for_tenant text, model text, dims integer, query_vector halfvec, kind text, with_shared boolean, every_session boolean, sessions text[], key_prefix text, want_tags text[], known_at timestamp with time zone, exclude_id bigint, lim integer)
    RETURNS TABLE(item_id bigint, version_id bigint, similarity real)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.fact_version_vector_candidates(text,text,integer,halfvec,text,boolean,boolean,text[],text,text[],timestamp with time zone,bigint,integer) OWNER TO pgfacts_searcher;
GRANT EXECUTE ON FUNCTION pgfacts_internal.fact_version_vector_candidates(text,text,integer,halfvec,text,boolean,boolean,text[],text,text[],timestamp with time zone,bigint,integer) TO pgfacts_owner;

CREATE FUNCTION pgfacts_internal.fact_visibility(tenant text, kind text, caller text, scope text, OUT with_shared boolean, OUT every_session boolean, OUT sessions text[])
    RETURNS record
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.fact_visibility(text,text,text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.fact_visibility(text,text,text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.fact_visible(shared boolean, session_id text, key text, expires_at timestamp with time zone, kind text, with_shared boolean, every_session boolean, sessions text[])
    RETURNS boolean
    LANGUAGE sql STABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.fact_visible(boolean,text,text,timestamp with time zone,text,boolean,boolean,text[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.fact_visible(boolean,text,text,timestamp with time zone,text,boolean,boolean,text[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_searcher, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.fact_write_instant(tenant text)
    RETURNS timestamp with time zone
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.fact_write_instant(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.fact_write_instant(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.fact_writes_lock_key(tenant text)
    RETURNS bigint
    LANGUAGE sql VOLATILE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.fact_writes_lock_key(text) OWNER TO pgfacts_owner;

CREATE FUNCTION pgfacts_internal.facts_as_of(for_tenant text, known_at timestamp with time zone)
    RETURNS TABLE(fact_id bigint, version_id bigint, archived boolean, scope_key text, key text, value jsonb, shared boolean, session_id text, agent_id text, tags text[], created_at timestamp with time zone, updated_at timestamp with time zone, etag bigint, system_time tstzrange, search_doc tsvector)
    LANGUAGE sql STABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.facts_as_of(text,timestamp with time zone) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.facts_as_of(text,timestamp with time zone) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_searcher, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.facts_before_delete()
    RETURNS trigger
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.facts_before_delete() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.facts_before_delete() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.facts_before_insert()
    RETURNS trigger
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.facts_before_insert() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.facts_before_insert() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.facts_before_insert_statement()
    RETURNS trigger
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.facts_before_insert_statement() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.facts_before_insert_statement() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.facts_before_update()
    RETURNS trigger
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.facts_before_update() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.facts_before_update() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.facts_branch(enabled boolean, by_key boolean, want_shared boolean, in_sessions boolean, for_tenant text, with_shared boolean, every_session boolean, sessions text[], head text, head_end text, kind text, like_key text, want_tags text[], want_session text, want_agent text, lim integer)
    RETURNS SETOF pgfacts_internal.facts
    LANGUAGE sql STABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.facts_branch(boolean,boolean,boolean,boolean,text,boolean,boolean,text[],text,text,text,text,text[],text,text,integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.facts_branch(boolean,boolean,boolean,boolean,text,boolean,boolean,text[],text,text,text,text,text[],text,text,integer) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.facts_embeds_statement()
    RETURNS trigger
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.facts_embeds_statement() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.facts_embeds_statement() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.facts_force_purge_tool(args jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.facts_force_purge_tool(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.facts_force_purge_tool(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.facts_notify_intake()
    RETURNS trigger
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.facts_notify_intake() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.facts_notify_intake() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.facts_purge_tombstones_tool(args jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.facts_purge_tombstones_tool(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.facts_purge_tombstones_tool(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.facts_read_uncrawled_tool(args jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.facts_read_uncrawled_tool(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.facts_read_uncrawled_tool(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.facts_search_tool(args jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.facts_search_tool(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.facts_search_tool(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.facts_set_crawled_tool(args jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.facts_set_crawled_tool(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.facts_set_crawled_tool(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.facts_set_search_doc()
    RETURNS trigger
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.facts_set_search_doc() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.facts_set_search_doc() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.facts_similar_tool(args jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.facts_similar_tool(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.facts_similar_tool(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.facts_stats_tool(args jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.facts_stats_tool(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.facts_stats_tool(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.facts_tombstone_stats_tool(args jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.facts_tombstone_stats_tool(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.facts_tombstone_stats_tool(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.few_embeddings(for_tenant text, model text)
    RETURNS boolean
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.few_embeddings(text,text) OWNER TO pgfacts_searcher;
GRANT EXECUTE ON FUNCTION pgfacts_internal.few_embeddings(text,text) TO pgfacts_owner;

CREATE FUNCTION pgfacts_internal.few_visible_facts(for_tenant text, with_shared boolean, sessions text[])
    RETURNS boolean
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.few_visible_facts(text,boolean,text[]) OWNER TO pgfacts_searcher;
GRANT EXECUTE ON FUNCTION pgfacts_internal.few_visible_facts(text,boolean,text[]) TO pgfacts_owner;

CREATE FUNCTION pgfacts_internal.finish_extractions(for_tenant text, event_ids bigint[], episode_ids bigint[])
    RETURNS SETOF pgfacts_internal.extraction_events
    LANGUAGE sql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.finish_extractions(text,bigint[],bigint[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.finish_extractions(text,bigint[],bigint[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.fold_fact_uses(only_tenant text)
    RETURNS integer
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.fold_fact_uses(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.fold_fact_uses(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.force_extract_tool(args jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.force_extract_tool(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.force_extract_tool(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.given_leases(results jsonb)
    RETURNS TABLE(ord bigint, value jsonb, event_id bigint, lease_token uuid)
    LANGUAGE sql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.given_leases(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.given_leases(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.grant_internal_functions()
    RETURNS void
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.grant_internal_functions() OWNER TO pgfacts_owner;

CREATE FUNCTION pgfacts_internal.graph_delete_edge_tool(args jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.graph_delete_edge_tool(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.graph_delete_edge_tool(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.graph_delete_node_tool(args jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.graph_delete_node_tool(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.graph_delete_node_tool(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.graph_edge_changed()
    RETURNS trigger
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.graph_edge_changed() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.graph_edge_changed() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.graph_edge_properties(edge_id bigint, predicate_key text, confidence double precision, namespace text)
    RETURNS jsonb
    LANGUAGE sql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.graph_edge_properties(bigint,text,double precision,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.graph_edge_properties(bigint,text,double precision,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.graph_edges_between(tenant text, nodes bigint[], kind text, with_shared boolean, every_session boolean, sessions text[])
    RETURNS TABLE(from_key text, predicate_key text, to_key text, claim_id bigint, edge jsonb)
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.graph_edges_between(text,bigint[],text,boolean,boolean,text[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.graph_edges_between(text,bigint[],text,boolean,boolean,text[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.graph_evidence_seen(tenant text, node_ids bigint[], edge_ids bigint[], kind text, with_shared boolean, every_session boolean, sessions text[])
    RETURNS TABLE(node_id bigint, edge_id bigint, evidence text[], stale_evidence text[])
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.graph_evidence_seen(text,bigint[],bigint[],text,boolean,boolean,text[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.graph_evidence_seen(text,bigint[],bigint[],text,boolean,boolean,text[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.graph_kind_key(kind text)
    RETURNS text
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.graph_kind_key(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.graph_kind_key(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.graph_merge_lock_key(tenant text)
    RETURNS bigint
    LANGUAGE sql VOLATILE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.graph_merge_lock_key(text) OWNER TO pgfacts_owner;

CREATE FUNCTION pgfacts_internal.graph_merge_nodes_tool(args jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.graph_merge_nodes_tool(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.graph_merge_nodes_tool(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.graph_name_candidates(for_tenant text, pattern text, lim integer)
    RETURNS TABLE(node_key text)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.graph_name_candidates(text,text,integer) OWNER TO pgfacts_searcher;
GRANT EXECUTE ON FUNCTION pgfacts_internal.graph_name_candidates(text,text,integer) TO pgfacts_owner;

CREATE FUNCTION pgfacts_internal.graph_namespace(namespace text)
    RETURNS text
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.graph_namespace(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.graph_namespace(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.graph_neighbourhood_tool(args jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.graph_neighbourhood_tool(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.graph_neighbourhood_tool(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.graph_node_changed()
    RETURNS trigger
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.graph_node_changed() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.graph_node_changed() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.graph_node_properties(node_id bigint, node_key text, kind_key text, namespace text)
    RETURNS jsonb
    LANGUAGE sql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.graph_node_properties(bigint,text,text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.graph_node_properties(bigint,text,text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.graph_projection_backlog_all()
    RETURNS TABLE(tenant text, graph_name text, state text, pending bigint, oldest_change timestamp with time zone, synced_at timestamp with time zone, last_lag_seconds double precision)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.graph_projection_backlog_all() OWNER TO pgfacts_maintainer;
GRANT EXECUTE ON FUNCTION pgfacts_internal.graph_projection_backlog_all() TO pgfacts_operator;

CREATE FUNCTION pgfacts_internal.graph_projection_name_of(tenant text)
    RETURNS text
    LANGUAGE sql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.graph_projection_name_of(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.graph_projection_name_of(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.graph_projection_state(graph text)
    RETURNS text
    LANGUAGE sql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.graph_projection_state(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.graph_projection_state(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.graph_query_integer(value jsonb, name text, low integer, high integer, fallback integer)
    RETURNS integer
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.graph_query_integer(jsonb,text,integer,integer,integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.graph_query_integer(jsonb,text,integer,integer,integer) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.graph_query_params(name text, params jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.graph_query_params(text,jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.graph_query_params(text,jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.graph_query_text(name text, hops integer)
    RETURNS text
    LANGUAGE sql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.graph_query_text(text,integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.graph_query_text(text,integer) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.graph_reach(tenant text, start bigint[], depth integer, enough integer DEFAULT NULL::integer)
    RETURNS TABLE(node_id bigint, distance integer)
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.graph_reach(text,bigint[],integer,integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.graph_reach(text,bigint[],integer,integer) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.graph_reader(OUT tenant text, OUT kind text, OUT with_shared boolean, OUT every_session boolean, OUT sessions text[])
    RETURNS record
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.graph_reader() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.graph_reader() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.graph_remove_evidence_tool(args jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.graph_remove_evidence_tool(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.graph_remove_evidence_tool(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.graph_search_edges_tool(args jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.graph_search_edges_tool(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.graph_search_edges_tool(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.graph_search_nodes_tool(args jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.graph_search_nodes_tool(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.graph_search_nodes_tool(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.graph_sources(tenant text, evidence text[], kind text, with_shared boolean, every_session boolean, sessions text[])
    RETURNS TABLE(source text, claim_subject bigint, claim_predicate text)
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.graph_sources(text,text[],text,boolean,boolean,text[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.graph_sources(text,text[],text,boolean,boolean,text[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.graph_stats_tool(args jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.graph_stats_tool(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.graph_stats_tool(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.graph_upsert_edge_tool(args jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.graph_upsert_edge_tool(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.graph_upsert_edge_tool(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.graph_upsert_node_tool(args jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.graph_upsert_node_tool(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.graph_upsert_node_tool(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.graph_writer(OUT tenant text, OUT kind text, OUT agent text, OUT session text, OUT with_shared boolean, OUT every_session boolean, OUT sessions text[])
    RETURNS record
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.graph_writer() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.graph_writer() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.graphid_entry(id ag_catalog.graphid)
    RETURNS bigint
    LANGUAGE sql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.graphid_entry(ag_catalog.graphid) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.graphid_entry(ag_catalog.graphid) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.graphid_label(id ag_catalog.graphid)
    RETURNS integer
    LANGUAGE sql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.graphid_label(ag_catalog.graphid) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.graphid_label(ag_catalog.graphid) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.guard_incognito_tables(tables text[])
    RETURNS void
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.guard_incognito_tables(text[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.guard_incognito_tables(text[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.held_extraction_events(for_tenant text, event_ids bigint[], lease_tokens uuid[])
    RETURNS SETOF pgfacts_internal.extraction_events
    LANGUAGE sql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.held_extraction_events(text,bigint[],uuid[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.held_extraction_events(text,bigint[],uuid[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.hold_fact_for_review()
    RETURNS trigger
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.hold_fact_for_review() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.hold_fact_for_review() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.ingest_episode(episode jsonb, claims jsonb, floor real)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.ingest_episode(jsonb,jsonb,real) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.ingest_episode(jsonb,jsonb,real) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.intent_guidance(intent text)
    RETURNS text
    LANGUAGE sql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.intent_guidance(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.intent_guidance(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.intent_markers()
    RETURNS TABLE(pattern text, side text, signal text, weight real, words text[])
    LANGUAGE sql IMMUTABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.intent_markers() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.intent_markers() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.isolate_tenants(tables text[])
    RETURNS void
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.isolate_tenants(text[]) OWNER TO pgfacts_owner;

CREATE FUNCTION pgfacts_internal.item_content(for_tenant text, item_kind text, item_id bigint)
    RETURNS text
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.item_content(text,text,bigint) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.item_content(text,text,bigint) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.item_details(for_tenant text, item_kind text, item_id bigint, version_id bigint)
    RETURNS TABLE(ref text, key text, content text, value jsonb, subject_id bigint, current boolean, superseded boolean, valid_from timestamp with time zone, valid_to timestamp with time zone, recorded_at timestamp with time zone, retired_at timestamp with time zone, retired_reason text)
    LANGUAGE sql STABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.item_details(text,text,bigint,bigint) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.item_details(text,text,bigint,bigint) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.keep_replaced_fact_vector()
    RETURNS trigger
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.keep_replaced_fact_vector() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.keep_replaced_fact_vector() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.kept_claim(fact jsonb, context jsonb, subject jsonb, predicate jsonb, object_entity jsonb, cited text[], valid_from timestamp with time zone, start_defaulted boolean, valid_to timestamp with time zone, OUT claim jsonb, OUT notes text[])
    RETURNS record
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.kept_claim(jsonb,jsonb,jsonb,jsonb,jsonb,text[],timestamp with time zone,boolean,timestamp with time zone) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.kept_claim(jsonb,jsonb,jsonb,jsonb,jsonb,text[],timestamp with time zone,boolean,timestamp with time zone) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.key_access(key text, kind text)
    RETURNS text
    LANGUAGE sql IMMUTABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.key_access(text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.key_access(text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.key_bucket(key text)
    RETURNS text
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.key_bucket(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.key_bucket(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.key_candidates(for_tenant text, kind text, with_shared boolean, every_session boolean, sessions text[], pattern text, lim integer)
    RETURNS TABLE(item_id bigint, similarity real)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.key_candidates(text,text,boolean,boolean,text[],text,integer) OWNER TO pgfacts_searcher;
GRANT EXECUTE ON FUNCTION pgfacts_internal.key_candidates(text,text,boolean,boolean,text[],text,integer) TO pgfacts_owner;

CREATE FUNCTION pgfacts_internal.key_problem(key text)
    RETURNS text
    LANGUAGE sql IMMUTABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.key_problem(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.key_problem(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.key_problem_words(problem text, what text)
    RETURNS text
    LANGUAGE sql IMMUTABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.key_problem_words(text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.key_problem_words(text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.kind_roles(kinds text[])
    RETURNS text
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.kind_roles(text[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.kind_roles(text[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.known_replay(tenant text, from_key text, to_key text, predicate_key text, evidence text[], kind text, with_shared boolean, every_session boolean, sessions text[])
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.known_replay(text,text,text,text,text[],text,boolean,boolean,text[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.known_replay(text,text,text,text,text[],text,boolean,boolean,text[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.last_instant(system_time tstzrange)
    RETURNS timestamp with time zone
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.last_instant(tstzrange) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.last_instant(tstzrange) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.leased_event(event_id bigint, lease_token uuid)
    RETURNS pgfacts_internal.extraction_events
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.leased_event(bigint,uuid) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.leased_event(bigint,uuid) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.live_slot(tenant text, subject bigint, predicate text)
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.live_slot(text,bigint,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.live_slot(text,bigint,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.lock_edge_ends(tenant text, from_key text, to_key text, OUT from_id bigint, OUT to_id bigint, OUT from_node text, OUT to_node text)
    RETURNS record
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.lock_edge_ends(text,text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.lock_edge_ends(text,text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.lock_graph_projection(tenant text)
    RETURNS text
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.lock_graph_projection(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.lock_graph_projection(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.lock_key(input text)
    RETURNS bigint
    LANGUAGE sql VOLATILE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.lock_key(text) OWNER TO pgfacts_owner;

CREATE FUNCTION pgfacts_internal.maintain_all_tenants()
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.maintain_all_tenants() OWNER TO pgfacts_maintainer;
GRANT EXECUTE ON FUNCTION pgfacts_internal.maintain_all_tenants() TO pgfacts_operator;

CREATE FUNCTION pgfacts_internal.maintenance_job_list()
    RETURNS TABLE(job text, cron_name text, schedule text, command text, does text, worker_part text)
    LANGUAGE sql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.maintenance_job_list() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.maintenance_job_list() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.max_embedding_dimension()
    RETURNS integer
    LANGUAGE sql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.max_embedding_dimension() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.max_embedding_dimension() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.max_embedding_models()
    RETURNS integer
    LANGUAGE sql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.max_embedding_models() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.max_embedding_models() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.may_hold_redaction(pattern text, content jsonb)
    RETURNS boolean
    LANGUAGE sql IMMUTABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.may_hold_redaction(text,jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.may_hold_redaction(text,jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.memory_content_hash(lines jsonb)
    RETURNS text
    LANGUAGE sql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.memory_content_hash(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.memory_content_hash(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.memory_scopes()
    RETURNS text[]
    LANGUAGE sql IMMUTABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.memory_scopes() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.memory_scopes() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.memory_session(tenant text, session text)
    RETURNS text
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.memory_session(text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.memory_session(text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.merge_aliases(kind text, name text, existing text[], added text[])
    RETURNS text[]
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.merge_aliases(text,text,text[],text[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.merge_aliases(text,text,text[],text[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.merge_edge(tenant text, edge pgfacts_internal.graph_edges, duplicate bigint, survivor bigint)
    RETURNS void
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.merge_edge(text,pgfacts_internal.graph_edges,bigint,bigint) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.merge_edge(text,pgfacts_internal.graph_edges,bigint,bigint) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.model_dimension(for_tenant text, model text)
    RETURNS integer
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.model_dimension(text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.model_dimension(text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.model_timestamp(value jsonb)
    RETURNS timestamp with time zone
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.model_timestamp(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.model_timestamp(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.move_write_instants(tenant text, instants timestamp with time zone[], commit_at timestamp with time zone, subjects bigint[], predicates text[], episodes bigint[], claim_ids bigint[])
    RETURNS void
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp
    SET enable_seqscan = off
    SET enable_hashjoin = off
    SET enable_mergejoin = off
    SET plan_cache_mode = force_generic_plan;
ALTER FUNCTION pgfacts_internal.move_write_instants(text,timestamp with time zone[],timestamp with time zone,bigint[],text[],bigint[],bigint[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.move_write_instants(text,timestamp with time zone[],timestamp with time zone,bigint[],text[],bigint[],bigint[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.named_entities(for_tenant text, query text, OUT ids bigint[], OUT names text[])
    RETURNS record
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    SET plan_cache_mode = force_generic_plan;
ALTER FUNCTION pgfacts_internal.named_entities(text,text) OWNER TO pgfacts_searcher;
GRANT EXECUTE ON FUNCTION pgfacts_internal.named_entities(text,text) TO pgfacts_owner;

CREATE FUNCTION pgfacts_internal.named_year(detected jsonb)
    RETURNS tstzrange
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.named_year(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.named_year(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.namespace_matches(namespace text, wanted text)
    RETURNS boolean
    LANGUAGE sql IMMUTABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.namespace_matches(text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.namespace_matches(text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.negation_query()
    RETURNS tsquery
    LANGUAGE sql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.negation_query() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.negation_query() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_searcher, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.neighbourhood_nodes(tenant text, reached bigint[], reached_hops integer[], entity_start bigint[], depth integer, valid_at timestamp with time zone, known_at timestamp with time zone, wanted_ns text, "limit" integer)
    RETURNS TABLE(id bigint, distance integer, entity boolean, ord bigint)
    LANGUAGE sql STABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.neighbourhood_nodes(text,bigint[],integer[],bigint[],integer,timestamp with time zone,timestamp with time zone,text,integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.neighbourhood_nodes(text,bigint[],integer[],bigint[],integer,timestamp with time zone,timestamp with time zone,text,integer) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.next_instant(newest timestamp with time zone)
    RETURNS timestamp with time zone
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.next_instant(timestamp with time zone) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.next_instant(timestamp with time zone) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.node_key_of(kind text, name text)
    RETURNS text
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.node_key_of(text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.node_key_of(text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.noisy_or(old_confidence double precision, new_confidence double precision)
    RETURNS double precision
    LANGUAGE sql IMMUTABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.noisy_or(double precision,double precision) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.noisy_or(double precision,double precision) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.normalize_graph_name(input text)
    RETURNS text
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.normalize_graph_name(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.normalize_graph_name(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.normalize_session_id(session_id text)
    RETURNS text
    LANGUAGE sql IMMUTABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.normalize_session_id(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.normalize_session_id(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.note_history_end(for_tenant text, known_until timestamp with time zone)
    RETURNS void
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.note_history_end(text,timestamp with time zone) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.note_history_end(text,timestamp with time zone) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.note_knowledge_write(tenant text, write_at timestamp with time zone, subjects bigint[], predicates text[], episode_id bigint, claim_ids bigint[] DEFAULT '{}'::bigint[])
    RETURNS void
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.note_knowledge_write(text,timestamp with time zone,bigint[],text[],bigint,bigint[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.note_knowledge_write(text,timestamp with time zone,bigint[],text[],bigint,bigint[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.noted_write_instant(tenant text)
    RETURNS timestamp with time zone
    LANGUAGE sql STABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.noted_write_instant(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.noted_write_instant(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.pack_suppressed(query text, query_vector vector, model text, lim integer, scope text, detected jsonb, items jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.pack_suppressed(text,vector,text,integer,text,jsonb,jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.pack_suppressed(text,vector,text,integer,text,jsonb,jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.parse_key_pattern(pattern text, OUT like_pattern text, OUT literal_head text)
    RETURNS record
    LANGUAGE plpgsql IMMUTABLE STRICT SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.parse_key_pattern(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.parse_key_pattern(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.parse_query(query text, OUT match tsquery, OUT words tsquery[], OUT negated boolean, OUT pairs tsquery)
    RETURNS record
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.parse_query(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.parse_query(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.pass_claim_gates(tenant text, episode pgfacts_internal.episodes, inputs pgfacts_internal.claim_input[], floor real)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.pass_claim_gates(text,pgfacts_internal.episodes,pgfacts_internal.claim_input[],real) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.pass_claim_gates(text,pgfacts_internal.episodes,pgfacts_internal.claim_input[],real) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.pattern_delete_scope(scope text, kind text, caller text)
    RETURNS text
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.pattern_delete_scope(text,text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.pattern_delete_scope(text,text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.pending_candidate(tenant text, candidate_id bigint, note text)
    RETURNS pgfacts_internal.review_candidates
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.pending_candidate(text,bigint,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.pending_candidate(text,bigint,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.pending_fact_candidate(tenant text, candidate_id bigint, note text)
    RETURNS pgfacts_internal.review_fact_candidates
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.pending_fact_candidate(text,bigint,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.pending_fact_candidate(text,bigint,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.pg_cron_schema()
    RETURNS text
    LANGUAGE sql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.pg_cron_schema() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.pg_cron_schema() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.pg_cron_state()
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.pg_cron_state() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.pg_cron_state() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.predicate_key_of(predicate text)
    RETURNS text
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.predicate_key_of(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.predicate_key_of(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.project_graph_rows(tenant text, graph text, node_ids bigint[], edge_ids bigint[])
    RETURNS void
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, ag_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.project_graph_rows(text,text,bigint[],bigint[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.project_graph_rows(text,text,bigint[],bigint[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.prompt_data_line(line jsonb)
    RETURNS text
    LANGUAGE sql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.prompt_data_line(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.prompt_data_line(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.purge_episodes(tenant text, source_kind text, source_ref text, doomed bigint[])
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.purge_episodes(text,text,text,bigint[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.purge_episodes(text,text,text,bigint[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.purge_tombstones_in(only_tenant text, ttl_seconds integer, max_rows integer)
    RETURNS integer
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.purge_tombstones_in(text,integer,integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.purge_tombstones_in(text,integer,integer) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.query_max_length()
    RETURNS integer
    LANGUAGE sql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.query_max_length() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.query_max_length() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_searcher, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.query_stop_words()
    RETURNS text[]
    LANGUAGE sql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.query_stop_words() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.query_stop_words() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_searcher, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.queue_claim_embedding()
    RETURNS trigger
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.queue_claim_embedding() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.queue_claim_embedding() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.queue_fact_embedding()
    RETURNS trigger
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.queue_fact_embedding() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.queue_fact_embedding() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.raise_argument_type(message text, type_of anyelement)
    RETURNS anyelement
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.raise_argument_type(text,anyelement) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.raise_argument_type(text,anyelement) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.raise_bad_limit(value integer, name text, low integer, high integer)
    RETURNS integer
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.raise_bad_limit(integer,text,integer,integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.raise_bad_limit(integer,text,integer,integer) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.raise_claim_problem(c pgfacts_internal.claim_input, claim jsonb)
    RETURNS void
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.raise_claim_problem(pgfacts_internal.claim_input,jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.raise_claim_problem(pgfacts_internal.claim_input,jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.raise_fact_problem(problem text, fact_position bigint, item jsonb, kind text, max_bytes bigint)
    RETURNS void
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.raise_fact_problem(text,bigint,jsonb,text,bigint) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.raise_fact_problem(text,bigint,jsonb,text,bigint) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.raise_known_at_in_future(known_at timestamp with time zone)
    RETURNS void
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.raise_known_at_in_future(timestamp with time zone) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.raise_known_at_in_future(timestamp with time zone) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.raise_redacted(what text, placeholder text, field text)
    RETURNS void
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.raise_redacted(text,text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.raise_redacted(text,text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.raise_reserved_key(key text, kind text, action text)
    RETURNS void
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.raise_reserved_key(text,text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.raise_reserved_key(text,text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.ranked_hits(query text, query_vector vector, model text, lim integer, kind text, with_shared boolean, every_session boolean, sessions text[], want_facts boolean, want_claims boolean, key_prefix text, want_tags text[], history boolean, valid_at timestamp with time zone, known_at timestamp with time zone, text_weight real, vector_weight real, exclude_kind text DEFAULT NULL::text, exclude_id bigint DEFAULT NULL::bigint)
    RETURNS TABLE(item_kind text, item_id bigint, version_id bigint, score double precision, text_rank integer, vector_rank integer, similarity real)
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp
    SET plan_cache_mode = force_generic_plan;
ALTER FUNCTION pgfacts_internal.ranked_hits(text,vector,text,integer,text,boolean,boolean,text[],boolean,boolean,text,text[],boolean,timestamp with time zone,timestamp with time zone,real,real,text,bigint) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.ranked_hits(text,vector,text,integer,text,boolean,boolean,text[],boolean,boolean,text,text[],boolean,timestamp with time zone,timestamp with time zone,real,real,text,bigint) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.read_facts_by_scope_keys_tool(args jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.read_facts_by_scope_keys_tool(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.read_facts_by_scope_keys_tool(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.read_facts_tool(args jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.read_facts_tool(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.read_facts_tool(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.read_slots(tenant text, inputs pgfacts_internal.claim_input[], OUT slots pgfacts_internal.slot_picture[], OUT newest timestamp with time zone)
    RETURNS record
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp
    SET enable_seqscan = off
    SET enable_hashjoin = off
    SET enable_mergejoin = off
    SET plan_cache_mode = force_generic_plan;
ALTER FUNCTION pgfacts_internal.read_slots(text,pgfacts_internal.claim_input[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.read_slots(text,pgfacts_internal.claim_input[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.readable_by(key text, kind text)
    RETURNS boolean
    LANGUAGE sql IMMUTABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.readable_by(text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.readable_by(text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_searcher, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.readable_item_content(for_tenant text, item_kind text, item_id bigint, kind text)
    RETURNS text
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.readable_item_content(text,text,bigint,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.readable_item_content(text,text,bigint,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.readable_key_pattern(key_pattern text, kind text, OUT like_pattern text, OUT literal_head text)
    RETURNS record
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.readable_key_pattern(text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.readable_key_pattern(text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.reader_visibility(scope text, OUT kind text, OUT with_shared boolean, OUT every_session boolean, OUT sessions text[])
    RETURNS record
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.reader_visibility(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.reader_visibility(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.rebuild_graph_projection_of(tenant text)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.rebuild_graph_projection_of(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.rebuild_graph_projection_of(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.rebuild_slot(tenant text, subject bigint, predicate text, without_episodes bigint[])
    RETURNS integer
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.rebuild_slot(text,bigint,text,bigint[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.rebuild_slot(text,bigint,text,bigint[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.record_fact_uses(for_tenant text, fact_ids bigint[])
    RETURNS void
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.record_fact_uses(text,bigint[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.record_fact_uses(text,bigint[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.record_memory_tool(args jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.record_memory_tool(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.record_memory_tool(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.redaction_default_pattern()
    RETURNS text
    LANGUAGE sql IMMUTABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.redaction_default_pattern() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.redaction_default_pattern() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.redaction_defaults()
    RETURNS text[]
    LANGUAGE sql IMMUTABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.redaction_defaults() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.redaction_defaults() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.redaction_in_json(pattern text, content jsonb)
    RETURNS text
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.redaction_in_json(text,jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.redaction_in_json(text,jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.redaction_in_text(pattern text, content text)
    RETURNS text
    LANGUAGE sql IMMUTABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.redaction_in_text(text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.redaction_in_text(text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.redaction_pattern(for_tenant text)
    RETURNS text
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.redaction_pattern(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.redaction_pattern(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.redaction_pattern_of(placeholders text[])
    RETURNS text
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.redaction_pattern_of(text[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.redaction_pattern_of(text[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.refuse_incognito_write()
    RETURNS trigger
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.refuse_incognito_write() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.refuse_incognito_write() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.refuse_kind(allowed text[], operation text)
    RETURNS text
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.refuse_kind(text[],text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.refuse_kind(text[],text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.refuse_redacted_edge()
    RETURNS trigger
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.refuse_redacted_edge() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.refuse_redacted_edge() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.refuse_redacted_episode()
    RETURNS trigger
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.refuse_redacted_episode() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.refuse_redacted_episode() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.refuse_redacted_facts_inserted()
    RETURNS trigger
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.refuse_redacted_facts_inserted() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.refuse_redacted_facts_inserted() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.refuse_redacted_facts_updated()
    RETURNS trigger
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.refuse_redacted_facts_updated() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.refuse_redacted_facts_updated() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.refuse_redacted_memory()
    RETURNS trigger
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.refuse_redacted_memory() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.refuse_redacted_memory() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.refuse_redacted_names()
    RETURNS trigger
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.refuse_redacted_names() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.refuse_redacted_names() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.refuse_writer(verb text)
    RETURNS text
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.refuse_writer(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.refuse_writer(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.register_api(signature text, kinds text[])
    RETURNS void
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.register_api(text,text[]) OWNER TO pgfacts_owner;

CREATE FUNCTION pgfacts_internal.register_claim_gate(layer text, handler text)
    RETURNS void
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.register_claim_gate(text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.register_claim_gate(text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.register_search_source(item_kind text, handler text)
    RETURNS void
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.register_search_source(text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.register_search_source(text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.register_setting(layer text, name text, value_type text, minimum numeric, maximum numeric, default_value jsonb, description text)
    RETURNS void
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.register_setting(text,text,text,numeric,numeric,jsonb,text) OWNER TO pgfacts_owner;

CREATE FUNCTION pgfacts_internal.register_tool(layer text, name text, handler text, api_functions text[], description text, input_schema jsonb, output_schema jsonb, read_only boolean, destructive boolean, idempotent boolean, available_when text DEFAULT NULL::text)
    RETURNS void
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.register_tool(text,text,text,text[],text,jsonb,jsonb,boolean,boolean,boolean,text) OWNER TO pgfacts_owner;

CREATE FUNCTION pgfacts_internal.removal_source(tenant text, ref text, kind text, with_shared boolean, every_session boolean, sessions text[])
    RETURNS text
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.removal_source(text,text,text,boolean,boolean,text[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.removal_source(text,text,text,boolean,boolean,text[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.renew_lock_key_secret()
    RETURNS void
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.renew_lock_key_secret() OWNER TO pgfacts_owner;

CREATE FUNCTION pgfacts_internal.require_cross_tenant_operator(operation text)
    RETURNS void
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.require_cross_tenant_operator(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.require_cross_tenant_operator(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.require_kind(allowed text[], operation text)
    RETURNS text
    LANGUAGE sql STABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.require_kind(text[],text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.require_kind(text[],text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.require_pg_cron(operation text)
    RETURNS void
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.require_pg_cron(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.require_pg_cron(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.require_read_committed(operation text)
    RETURNS void
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.require_read_committed(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.require_read_committed(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.require_writer(verb text)
    RETURNS text
    LANGUAGE sql STABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.require_writer(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.require_writer(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.reserved_prefix(key text)
    RETURNS text
    LANGUAGE sql IMMUTABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.reserved_prefix(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.reserved_prefix(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.restore_assertion(tenant text, subject bigint, predicate text, assertion text, retracted_at timestamp with time zone, restore_at timestamp with time zone, strict boolean)
    RETURNS bigint[]
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.restore_assertion(text,bigint,text,text,timestamp with time zone,timestamp with time zone,boolean) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.restore_assertion(text,bigint,text,text,timestamp with time zone,timestamp with time zone,boolean) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.restore_context(saved text[])
    RETURNS void
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.restore_context(text[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.restore_context(text[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.retention_backlog_all()
    RETURNS TABLE(tenant text, episodes_due bigint, memories_due bigint)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.retention_backlog_all() OWNER TO pgfacts_maintainer;
GRANT EXECUTE ON FUNCTION pgfacts_internal.retention_backlog_all() TO pgfacts_operator;

CREATE FUNCTION pgfacts_internal.retention_cutoff(tenant text, name text)
    RETURNS timestamp with time zone
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.retention_cutoff(text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.retention_cutoff(text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.retire_changed_source(tenant text, new_episode bigint, only_subject bigint, only_predicate text, retire_at timestamp with time zone)
    RETURNS integer
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.retire_changed_source(text,bigint,bigint,text,timestamp with time zone) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.retire_changed_source(text,bigint,bigint,text,timestamp with time zone) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.retire_row(one pgfacts_internal.slot_row, reason text, successor bigint)
    RETURNS pgfacts_internal.slot_row
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.retire_row(pgfacts_internal.slot_row,text,bigint) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.retire_row(pgfacts_internal.slot_row,text,bigint) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.retract_assertion(tenant text, subject bigint, predicate text, assertion text, retract_at timestamp with time zone)
    RETURNS integer
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.retract_assertion(text,bigint,text,text,timestamp with time zone) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.retract_assertion(text,bigint,text,text,timestamp with time zone) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.retry_delay(attempt integer, for_tenant text)
    RETURNS interval
    LANGUAGE sql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.retry_delay(integer,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.retry_delay(integer,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.review_approve_tool(args jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.review_approve_tool(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.review_approve_tool(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.review_candidate_tool(args jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.review_candidate_tool(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.review_candidate_tool(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.review_gate(tenant text, episode pgfacts_internal.episodes, claims pgfacts_internal.claim_input[], floor real)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.review_gate(text,pgfacts_internal.episodes,pgfacts_internal.claim_input[],real) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.review_gate(text,pgfacts_internal.episodes,pgfacts_internal.claim_input[],real) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.review_prefix_of(tenant text, key text)
    RETURNS text
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.review_prefix_of(text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.review_prefix_of(text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.review_queue_tool(args jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.review_queue_tool(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.review_queue_tool(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.review_reject_tool(args jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.review_reject_tool(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.review_reject_tool(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.reviewer_name()
    RETURNS text
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.reviewer_name() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.reviewer_name() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.saved_context()
    RETURNS text[]
    LANGUAGE sql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.saved_context() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.saved_context() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.scope_key_key(scope_key text)
    RETURNS text
    LANGUAGE sql IMMUTABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.scope_key_key(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.scope_key_key(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_searcher, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.scope_key_of(shared boolean, session text, key text)
    RETURNS text
    LANGUAGE sql IMMUTABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.scope_key_of(boolean,text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.scope_key_of(boolean,text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.scope_key_ok(scope_key text)
    RETURNS boolean
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.scope_key_ok(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.scope_key_ok(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.scope_key_scope(scope_key text)
    RETURNS text
    LANGUAGE sql IMMUTABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.scope_key_scope(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.scope_key_scope(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_searcher, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.search_hits(query text, query_vector vector, model text, lim integer, kind text, with_shared boolean, every_session boolean, sessions text[], want_facts boolean, want_claims boolean, key_prefix text, want_tags text[], history boolean, valid_at timestamp with time zone, known_at timestamp with time zone, text_weight real, vector_weight real, mode text, in_year tstzrange, named_ids bigint[], named_names text[])
    RETURNS TABLE(item_kind text, item_id bigint, ref text, key text, content text, value jsonb, current boolean, stale boolean, score double precision, text_rank integer, vector_rank integer, similarity real, valid_from timestamp with time zone, valid_to timestamp with time zone, recorded_at timestamp with time zone, retired_at timestamp with time zone)
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp
    SET plan_cache_mode = force_generic_plan;
ALTER FUNCTION pgfacts_internal.search_hits(text,vector,text,integer,text,boolean,boolean,text[],boolean,boolean,text,text[],boolean,timestamp with time zone,timestamp with time zone,real,real,text,tstzrange,bigint[],text[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.search_hits(text,vector,text,integer,text,boolean,boolean,text[],boolean,boolean,text,text[],boolean,timestamp with time zone,timestamp with time zone,real,real,text,tstzrange,bigint[],text[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.search_item_kinds()
    RETURNS text[]
    LANGUAGE sql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.search_item_kinds() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.search_item_kinds() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.search_pass(hits jsonb, lim integer, mode text, in_year tstzrange DEFAULT NULL::tstzrange, named_ids bigint[] DEFAULT NULL::bigint[], named_names text[] DEFAULT NULL::text[])
    RETURNS TABLE(item_kind text, item_id bigint, ref text, key text, content text, value jsonb, current boolean, stale boolean, score double precision, text_rank integer, vector_rank integer, similarity real, valid_from timestamp with time zone, valid_to timestamp with time zone, recorded_at timestamp with time zone, retired_at timestamp with time zone)
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp
    SET plan_cache_mode = force_generic_plan;
ALTER FUNCTION pgfacts_internal.search_pass(jsonb,integer,text,tstzrange,bigint[],text[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.search_pass(jsonb,integer,text,tstzrange,bigint[],text[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.search_skills_tool(args jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.search_skills_tool(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.search_skills_tool(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.searchable_text(doc text)
    RETURNS text
    LANGUAGE sql IMMUTABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.searchable_text(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.searchable_text(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_searcher, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.seed_nodes(tenant text, seeds text[], kind text, with_shared boolean, every_session boolean, sessions text[])
    RETURNS bigint[]
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.seed_nodes(text,text[],text,boolean,boolean,text[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.seed_nodes(text,text[],text,boolean,boolean,text[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.sees_every_session(kind text)
    RETURNS boolean
    LANGUAGE sql IMMUTABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.sees_every_session(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.sees_every_session(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.sees_expired(kind text)
    RETURNS boolean
    LANGUAGE sql IMMUTABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.sees_expired(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.sees_expired(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.session_id_ok(session_id text)
    RETURNS boolean
    LANGUAGE sql IMMUTABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.session_id_ok(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.session_id_ok(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.setting(tenant text, name text)
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.setting(text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.setting(text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.settle_known_at(tenant text, known_at timestamp with time zone)
    RETURNS void
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.settle_known_at(text,timestamp with time zone) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.settle_known_at(text,timestamp with time zone) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.shown(input text)
    RETURNS text
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.shown(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.shown(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.skill_description(value jsonb)
    RETURNS text
    LANGUAGE sql IMMUTABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.skill_description(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.skill_description(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.slot_changes(slots pgfacts_internal.slot_picture[])
    RETURNS pgfacts_internal.slot_row[]
    LANGUAGE sql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.slot_changes(pgfacts_internal.slot_picture[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.slot_changes(pgfacts_internal.slot_picture[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.slot_instant(tenant text, subject bigint, predicate text)
    RETURNS timestamp with time zone
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.slot_instant(text,bigint,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.slot_instant(text,bigint,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.slot_lock_key(tenant text, subject text, predicate text)
    RETURNS bigint
    LANGUAGE sql VOLATILE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.slot_lock_key(text,text,text) OWNER TO pgfacts_owner;

CREATE FUNCTION pgfacts_internal.source_hits(tenant text, query text, item_kinds text[], lim integer)
    RETURNS TABLE(item_kind text, item_id bigint, ref text, key text, content text, value jsonb, score real, valid_from timestamp with time zone, valid_to timestamp with time zone, recorded_at timestamp with time zone)
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.source_hits(text,text,text[],integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.source_hits(text,text,text[],integer) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.spawn_tree(tenant text, session_id text)
    RETURNS text[]
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.spawn_tree(text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.spawn_tree(text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.stale_claims(tenant text, source_kind text, source_ref text, new_episode bigint)
    RETURNS TABLE(claim_id bigint, subject_id bigint, predicate text, kept tstzmultirange)
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.stale_claims(text,text,text,bigint) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.stale_claims(text,text,text,bigint) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.stamp_knowledge_commit()
    RETURNS trigger
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    SET enable_seqscan = off
    SET enable_hashjoin = off
    SET enable_mergejoin = off;
ALTER FUNCTION pgfacts_internal.stamp_knowledge_commit() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.stamp_knowledge_commit() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.store_episode(tenant text, episode pgfacts_internal.episodes, written pgfacts_internal.episode_claim[], write_at timestamp with time zone)
    RETURNS void
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.store_episode(text,pgfacts_internal.episodes,pgfacts_internal.episode_claim[],timestamp with time zone) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.store_episode(text,pgfacts_internal.episodes,pgfacts_internal.episode_claim[],timestamp with time zone) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.store_fact_tool(args jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.store_fact_tool(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.store_fact_tool(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.stored_namespace(wanted text)
    RETURNS text
    LANGUAGE sql IMMUTABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.stored_namespace(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.stored_namespace(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.tag_limits(OUT max_tags integer, OUT max_chars integer)
    RETURNS record
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.tag_limits() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.tag_limits() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.tags_schema(description text)
    RETURNS jsonb
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.tags_schema(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.tags_schema(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.tenant_name_ok(tenant text)
    RETURNS boolean
    LANGUAGE sql IMMUTABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.tenant_name_ok(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.tenant_name_ok(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.text_score(doc tsvector, match tsquery, words tsquery[], negated boolean, pairs tsquery DEFAULT NULL::tsquery)
    RETURNS real
    LANGUAGE sql IMMUTABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.text_score(tsvector,tsquery,tsquery[],boolean,tsquery) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.text_score(tsvector,tsquery,tsquery[],boolean,tsquery) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_searcher, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.text_score_of(doc tsvector, match tsquery, w1 tsquery, w2 tsquery, w3 tsquery, w4 tsquery, w5 tsquery, w6 tsquery, w7 tsquery, w8 tsquery, more tsquery[], word_count integer, negated boolean, pairs tsquery)
    RETURNS real
    LANGUAGE sql IMMUTABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.text_score_of(tsvector,tsquery,tsquery,tsquery,tsquery,tsquery,tsquery,tsquery,tsquery,tsquery,tsquery[],integer,boolean,tsquery) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.text_score_of(tsvector,tsquery,tsquery,tsquery,tsquery,tsquery,tsquery,tsquery,tsquery,tsquery,tsquery[],integer,boolean,tsquery) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_searcher, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.tool_args(tool text, args jsonb, allowed text[])
    RETURNS jsonb
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.tool_args(text,jsonb,text[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.tool_args(text,jsonb,text[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.tool_available(tool text)
    RETURNS boolean
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.tool_available(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.tool_available(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.transfer_advance_sequences(table_name text, restored jsonb)
    RETURNS void
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.transfer_advance_sequences(text,jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.transfer_advance_sequences(text,jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.transfer_await_earlier(import pgfacts_internal.transfer_imports, first_line bigint, wait_all boolean, keys text[])
    RETURNS boolean
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.transfer_await_earlier(pgfacts_internal.transfer_imports,bigint,boolean,text[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.transfer_await_earlier(pgfacts_internal.transfer_imports,bigint,boolean,text[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.transfer_batch_done(tenant text, import_id bigint, first_line bigint)
    RETURNS boolean
    LANGUAGE sql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.transfer_batch_done(text,bigint,bigint) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.transfer_batch_done(text,bigint,bigint) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.transfer_batch_key(tenant text, import_id bigint, first_line bigint)
    RETURNS bigint
    LANGUAGE sql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.transfer_batch_key(text,bigint,bigint) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.transfer_batch_key(text,bigint,bigint) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.transfer_batch_touches(tenant text, first_line bigint, last_line bigint, keys text[])
    RETURNS boolean
    LANGUAGE sql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.transfer_batch_touches(text,bigint,bigint,text[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.transfer_batch_touches(text,bigint,bigint,text[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.transfer_checkpoint(tenant text, import_id bigint, first_line bigint, last_line bigint, outcome jsonb, rejects jsonb, rejects_through bigint, rejects_bytes bigint)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.transfer_checkpoint(text,bigint,bigint,bigint,jsonb,jsonb,bigint,bigint) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.transfer_checkpoint(text,bigint,bigint,bigint,jsonb,jsonb,bigint,bigint) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.transfer_claim_batch(import pgfacts_internal.transfer_imports)
    RETURNS bigint
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.transfer_claim_batch(pgfacts_internal.transfer_imports) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.transfer_claim_batch(pgfacts_internal.transfer_imports) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.transfer_entity_id(reference jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.transfer_entity_id(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.transfer_entity_id(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.transfer_excluded_tables()
    RETURNS text[]
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.transfer_excluded_tables() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.transfer_excluded_tables() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.transfer_fact_outcomes(tenant text, items jsonb[], line_nos bigint[], kind text, session text, max_bytes bigint)
    RETURNS TABLE(line_no bigint, item jsonb, scope_key text, reason text, outcome text, round bigint)
    LANGUAGE sql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.transfer_fact_outcomes(text,jsonb[],bigint[],text,text,bigint) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.transfer_fact_outcomes(text,jsonb[],bigint[],text,text,bigint) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.transfer_family(first_line text)
    RETURNS text
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.transfer_family(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.transfer_family(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.transfer_header(embeddings boolean, audit boolean)
    RETURNS jsonb
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.transfer_header(boolean,boolean) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.transfer_header(boolean,boolean) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.transfer_import_answer(import pgfacts_internal.transfer_imports)
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.transfer_import_answer(pgfacts_internal.transfer_imports) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.transfer_import_answer(pgfacts_internal.transfer_imports) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.transfer_lossless_lines(batch jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.transfer_lossless_lines(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.transfer_lossless_lines(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.transfer_new_import(for_tenant text, sha256 text, named text, of_family text)
    RETURNS pgfacts_internal.transfer_imports
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.transfer_new_import(text,text,text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.transfer_new_import(text,text,text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.transfer_next_lines(tenant text, after bigint, batch_size integer)
    RETURNS TABLE(line_no bigint, line text, record jsonb)
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.transfer_next_lines(text,bigint,integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.transfer_next_lines(text,bigint,integer) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.transfer_open_import(tenant text, for_batch boolean DEFAULT false)
    RETURNS pgfacts_internal.transfer_imports
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.transfer_open_import(text,boolean) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.transfer_open_import(text,boolean) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.transfer_optional_tables(embeddings boolean, audit boolean)
    RETURNS text[]
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.transfer_optional_tables(boolean,boolean) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.transfer_optional_tables(boolean,boolean) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.transfer_plain_batch(tenant text, line_nos bigint[], records jsonb[])
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.transfer_plain_batch(text,bigint[],jsonb[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.transfer_plain_batch(text,bigint[],jsonb[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.transfer_plain_facts(tenant text, line_nos bigint[], records jsonb[])
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.transfer_plain_facts(text,bigint[],jsonb[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.transfer_plain_facts(text,bigint[],jsonb[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.transfer_plain_line(record jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.transfer_plain_line(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.transfer_plain_line(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.transfer_reject_line(line text, record jsonb, reason text, message text)
    RETURNS text
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.transfer_reject_line(text,jsonb,text,text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.transfer_reject_line(text,jsonb,text,text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.transfer_restore_batch(tenant text, lines jsonb)
    RETURNS bigint
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.transfer_restore_batch(text,jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.transfer_restore_batch(text,jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.transfer_restore_table(tenant text, table_name text, restored jsonb)
    RETURNS bigint
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp
    SET session_replication_role = replica;
ALTER FUNCTION pgfacts_internal.transfer_restore_table(text,text,jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.transfer_restore_table(text,text,jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.transfer_row_columns(table_name text)
    RETURNS TABLE(column_name text, is_identity boolean)
    LANGUAGE sql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.transfer_row_columns(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.transfer_row_columns(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.transfer_sequence_columns()
    RETURNS TABLE(table_name text, column_name text, sequence_name text)
    LANGUAGE sql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.transfer_sequence_columns() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.transfer_sequence_columns() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.transfer_tables()
    RETURNS TABLE(table_name text, depth integer, key_columns text[])
    LANGUAGE sql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.transfer_tables() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.transfer_tables() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.transfer_tenant_holds_rows(tenant text)
    RETURNS text
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.transfer_tenant_holds_rows(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.transfer_tenant_holds_rows(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.transfer_write_batch(import pgfacts_internal.transfer_imports, first_line bigint)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.transfer_write_batch(pgfacts_internal.transfer_imports,bigint) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.transfer_write_batch(pgfacts_internal.transfer_imports,bigint) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.tree_session(session_id text)
    RETURNS text
    LANGUAGE plpgsql STABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.tree_session(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.tree_session(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.trust_rank(trust text)
    RETURNS integer
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.trust_rank(text) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.trust_rank(text) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.upsert_facts(items jsonb[], for_tenant text, session text, agent text, answer boolean DEFAULT true, fresh boolean DEFAULT false)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.upsert_facts(jsonb[],text,text,text,boolean,boolean) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.upsert_facts(jsonb[],text,text,text,boolean,boolean) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.value_searchable_text(value jsonb)
    RETURNS text
    LANGUAGE sql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.value_searchable_text(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.value_searchable_text(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_searcher, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.vector_candidates(for_tenant text, model text, dims integer, query_vector halfvec, want_facts boolean, want_claims boolean, kind text, with_shared boolean, every_session boolean, sessions text[], key_prefix text, want_tags text[], floor real, history boolean, valid_at timestamp with time zone, known_at timestamp with time zone, exclude_kind text, exclude_id bigint, lim integer)
    RETURNS TABLE(item_kind text, item_id bigint, version_id bigint, similarity real)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    SET hnsw.iterative_scan = relaxed_order
    SET hnsw.max_scan_tuples = 50000
    SET hnsw.ef_search = 100;
ALTER FUNCTION pgfacts_internal.vector_candidates(text,text,integer,halfvec,boolean,boolean,text,boolean,boolean,text[],text,text[],real,boolean,timestamp with time zone,timestamp with time zone,text,bigint,integer) OWNER TO pgfacts_searcher;
GRANT EXECUTE ON FUNCTION pgfacts_internal.vector_candidates(text,text,integer,halfvec,boolean,boolean,text,boolean,boolean,text[],text,text[],real,boolean,timestamp with time zone,timestamp with time zone,text,bigint,integer) TO pgfacts_owner;

CREATE FUNCTION pgfacts_internal.vector_candidates_query(dims integer, walk_facts boolean, walk_claims boolean, exact_facts boolean, exact_claims boolean, few_facts boolean)
    RETURNS text
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.vector_candidates_query(integer,boolean,boolean,boolean,boolean,boolean) OWNER TO pgfacts_searcher;
GRANT EXECUTE ON FUNCTION pgfacts_internal.vector_candidates_query(integer,boolean,boolean,boolean,boolean,boolean) TO pgfacts_owner;

CREATE FUNCTION pgfacts_internal.vector_search_list(lim integer)
    RETURNS integer
    LANGUAGE sql IMMUTABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.vector_search_list(integer) OWNER TO pgfacts_searcher;
GRANT EXECUTE ON FUNCTION pgfacts_internal.vector_search_list(integer) TO pgfacts_owner;

CREATE FUNCTION pgfacts_internal.visible_facts(by_key boolean, for_tenant text, with_shared boolean, every_session boolean, sessions text[], head text, head_end text, kind text, like_key text, want_tags text[], want_session text, want_agent text, lim integer)
    RETURNS SETOF pgfacts_internal.facts
    LANGUAGE sql STABLE SECURITY INVOKER;
ALTER FUNCTION pgfacts_internal.visible_facts(boolean,text,boolean,boolean,text[],text,text,text,text,text[],text,text,integer) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.visible_facts(boolean,text,boolean,boolean,text[],text,text,text,text,text[],text,text,integer) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.word_values(words tsquery[], OUT w1 tsquery, OUT w2 tsquery, OUT w3 tsquery, OUT w4 tsquery, OUT w5 tsquery, OUT w6 tsquery, OUT w7 tsquery, OUT w8 tsquery, OUT more tsquery[], OUT word_count integer)
    RETURNS record
    LANGUAGE sql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.word_values(tsquery[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.word_values(tsquery[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_searcher, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.words_held(doc tsvector, words tsquery[])
    RETURNS bigint
    LANGUAGE sql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.words_held(tsvector,tsquery[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.words_held(tsvector,tsquery[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_searcher, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.write_claim_changes(tenant text, write_at timestamp with time zone, changes pgfacts_internal.slot_row[])
    RETURNS integer
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp
    SET enable_seqscan = off
    SET enable_hashjoin = off
    SET enable_mergejoin = off
    SET plan_cache_mode = force_generic_plan;
ALTER FUNCTION pgfacts_internal.write_claim_changes(text,timestamp with time zone,pgfacts_internal.slot_row[]) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.write_claim_changes(text,timestamp with time zone,pgfacts_internal.slot_row[]) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.write_claims(tenant text, episode pgfacts_internal.episodes, claims jsonb, floor real, write_at timestamp with time zone, replay boolean)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.write_claims(text,pgfacts_internal.episodes,jsonb,real,timestamp with time zone,boolean) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.write_claims(text,pgfacts_internal.episodes,jsonb,real,timestamp with time zone,boolean) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.write_facts(items jsonb)
    RETURNS jsonb
    LANGUAGE plpgsql VOLATILE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.write_facts(jsonb) OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.write_facts(jsonb) TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;

CREATE FUNCTION pgfacts_internal.writer_kinds()
    RETURNS text[]
    LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION pgfacts_internal.writer_kinds() OWNER TO pgfacts_owner;
GRANT EXECUTE ON FUNCTION pgfacts_internal.writer_kinds() TO pgfacts_agent, pgfacts_crawler, pgfacts_facts_manager, pgfacts_maintainer, pgfacts_operator, pgfacts_reviewer, pgfacts_tuner;
