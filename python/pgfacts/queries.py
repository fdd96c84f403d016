"""Every SQL string the Python package sends, in one module.

Python passes through: these statements call the SQL API or read the catalogs; none of
them decides anything the database should decide.
"""

from __future__ import annotations

# --- migrations -------------------------------------------------------------------------

# One lock for every migrator of a database: extensions and roles are shared by all
# installs in it, so two schema names must not create them at the same time either.
MIGRATION_LOCK_KEY = 0x7067_6661_6374_73  # "pgfacts"
TAKE_MIGRATION_LOCK = "SELECT pg_catalog.pg_advisory_lock(%(key)s)"
RELEASE_MIGRATION_LOCK = "SELECT pg_catalog.pg_advisory_unlock(%(key)s)"

SERVER_VERSION_NUM = "SELECT pg_catalog.current_setting('server_version_num')::int"

# AGE is loaded per database (docs/operations.md, "AGE is loaded per database"): the
# database-level value of session_preload_libraries as stored in the catalog (a session
# sees it from its next start).
DATABASE_PRELOAD = """
SELECT pg_catalog.current_database() AS database,
       (SELECT pg_catalog.substr(c, pg_catalog.length('session_preload_libraries=') + 1)
          FROM pg_catalog.pg_db_role_setting AS s, pg_catalog.unnest(s.setconfig) AS c
         WHERE s.setdatabase = (SELECT d.oid FROM pg_catalog.pg_database AS d
                                 WHERE d.datname = pg_catalog.current_database())
           AND s.setrole = 0
           AND pg_catalog.starts_with(c, 'session_preload_libraries=')) AS preload
"""

SET_DATABASE_PRELOAD = "ALTER DATABASE {database} SET session_preload_libraries = {libraries}"

# False when the owner role exists and may not create schemas here, NULL without the role.
OWNER_MAY_CREATE = """
SELECT pg_catalog.has_database_privilege(r.oid, pg_catalog.current_database(), 'CREATE')
  FROM pg_catalog.pg_roles AS r WHERE r.rolname = %(owner)s"""
GRANT_CREATE_ON_DATABASE = """
DO $grant$ BEGIN
    EXECUTE pg_catalog.format('GRANT CREATE ON DATABASE %I TO {owner}',
                              pg_catalog.current_database());
END $grant$"""

LEDGER_EXISTS = "SELECT pg_catalog.to_regclass(%(ledger)s) IS NOT NULL"

# The ledger's name is fixed by migration 0001: {schema}_internal.schema_ledger.
LEDGER_ROWS = """
SELECT kind, name, sha256
  FROM {internal}.schema_ledger
 ORDER BY kind, name
"""

LEDGER_RECORD = """
INSERT INTO {internal}.schema_ledger AS l (kind, name, sha256, package_version)
VALUES (%(kind)s, %(name)s, %(sha256)s, %(package_version)s)
ON CONFLICT (kind, name) DO UPDATE
   SET sha256 = excluded.sha256,
       package_version = excluded.package_version,
       applied_at = pg_catalog.clock_timestamp()
"""

# A definition file that no longer exists leaves the ledger when the others are applied.
LEDGER_FORGET_DEFINITIONS = """
DELETE FROM {internal}.schema_ledger AS l
 WHERE l.kind = 'definition' AND NOT l.name = ANY(%(names)s)
"""

# --- doctor -----------------------------------------------------------------------------

SERVER_FACTS = """
SELECT pg_catalog.current_setting('server_version') AS server_version,
       pg_catalog.current_setting('server_version_num')::int AS server_version_num,
       pg_catalog.current_setting('shared_preload_libraries') AS preload,
       pg_catalog.current_setting('max_parallel_maintenance_workers')::int
           AS max_parallel_maintenance_workers
"""

AVAILABLE_EXTENSIONS = """
SELECT a.name, a.default_version, e.extversion AS installed_version
  FROM pg_catalog.pg_available_extensions a
  LEFT JOIN pg_catalog.pg_extension e ON e.extname = a.name
 WHERE a.name = ANY(%(names)s)
"""

# --- the SQL API ------------------------------------------------------------------------

SET_CONTEXT = """
SELECT {schema}.set_context(
    tenant => %(tenant)s, session_id => %(session_id)s, agent_id => %(agent_id)s,
    agent_kind => %(agent_kind)s, parent_session_id => %(parent_session_id)s,
    memory_scope => %(memory_scope)s)
"""

CURRENT_CONTEXT = "SELECT {schema}.current_context() AS context"

SCHEMA_VERSION = "SELECT {schema}.schema_version()"
# Whether this login can ask (first connect): the install exists and it may call the function.
SCHEMA_VERSION_CALLABLE = """
SELECT pg_catalog.to_regprocedure(%(function)s) IS NOT NULL
       AND pg_catalog.has_function_privilege(pg_catalog.to_regprocedure(%(function)s), 'EXECUTE')
"""

# One statement, one round trip: the caller context travels with the call.
CALL_TOOL = "SELECT {schema}.call_tool(%(name)s, %(args)s, %(context)s)"

TOOL_DEFINITIONS = "SELECT {schema}.tool_definitions()"
AVAILABLE_TOOLS = "SELECT {schema}.available_tools()"

# Every other API function runs after set_context in the same transaction. A function
# returning a table is read with SELECT *: its rows are built by column name (rows.py),
# and a scan of one function returns its rows in the order the function returned them.

# --- working memory ---------------------------------------------------------------------

STORE_FACT = (
    "SELECT {schema}.store_fact(key => %(key)s, value => %(value)s, tags => %(tags)s::text[], "
    "shared => %(shared)s, ttl_seconds => %(ttl_seconds)s)"
)
STORE_FACTS = "SELECT {schema}.store_facts(facts => %(facts)s)"
BULK_STORE_FACTS = """
SELECT {schema}.bulk_store_facts(
    records => %(records)s, source => %(source)s::bytea, sha256 => %(sha256)s,
    expected_count => %(expected_count)s::integer, key_prefix => %(key_prefix)s::text)
"""
READ_FACTS = """
SELECT * FROM {schema}.read_facts(
    key_pattern => %(key_pattern)s, tags => %(tags)s::text[], session_id => %(session_id)s,
    agent_id => %(agent_id)s, "limit" => %(limit)s::integer, scope => %(scope)s,
    known_at => %(known_at)s)
"""
READ_FACTS_PAGE = """
SELECT * FROM {schema}.read_facts_page(
    key_pattern => %(key_pattern)s, after => %(after)s::text, "limit" => %(limit)s::integer,
    scope => %(scope)s)
"""
READ_FACTS_BY_SCOPE_KEYS = """
SELECT * FROM {schema}.read_facts_by_scope_keys(
    scope_keys => %(scope_keys)s::text[], "limit" => %(limit)s::integer)
"""
FACT_HISTORY = """
SELECT * FROM {schema}.fact_history(
    key => %(key)s, shared => %(shared)s, session_id => %(session_id)s)
"""
DELETE_FACT = """
SELECT {schema}.delete_fact(
    key => %(key)s, shared => %(shared)s, pattern => %(pattern)s, scope => %(scope)s)
"""
DELETE_SESSION = "SELECT {schema}.delete_session(session_id => %(session_id)s)"
FACTS_READ_UNCRAWLED = """
SELECT {schema}.facts_read_uncrawled(key_prefix => %(key_prefix)s, "limit" => %(limit)s::integer)
"""
FACTS_SET_CRAWLED = """
SELECT {schema}.facts_set_crawled(
    scope_keys => %(scope_keys)s, key_prefix => %(key_prefix)s, crawled => %(crawled)s)
"""
FACTS_STATS = "SELECT {schema}.facts_stats()"
AGENT_PROMPT = "SELECT {schema}.agent_prompt(max_skills => %(max_skills)s::integer)"
REGISTER_SESSION = """
SELECT {schema}.register_session(session_id => %(session_id)s,
    parent_session_id => %(parent_session_id)s, agent_id => %(agent_id)s)
"""
END_SESSION = "SELECT {schema}.end_session(session_id => %(session_id)s)"
READ_INTAKE = 'SELECT {schema}.read_intake("limit" => %(limit)s)'
SPAWN_TREE = "SELECT * FROM {schema}.spawn_tree(session_id => %(session_id)s) AS t ORDER BY t"
SESSION_TREE = "SELECT * FROM {schema}.session_tree(session_id => %(session_id)s)"
PURGE_TOMBSTONES = (
    'SELECT {schema}.purge_tombstones(ttl_seconds => %(ttl_seconds)s, "limit" => %(limit)s)'
)
TOMBSTONE_STATS = "SELECT {schema}.tombstone_stats(ttl_seconds => %(ttl_seconds)s)"
PURGE_TOMBSTONES_BEFORE = """
SELECT {schema}.purge_tombstones_before(
    cutoff => %(cutoff)s, include_unreconciled => %(include_unreconciled)s,
    key_prefix => %(key_prefix)s, "limit" => %(limit)s)
"""
RUN_MAINTENANCE = "SELECT {schema}.run_maintenance()"
PRUNE_FACTS = """
SELECT {schema}.prune_facts(
    keep => %(keep)s, per => %(per)s, keep_by => %(keep_by)s, session_id => %(session_id)s,
    agent_id => %(agent_id)s)
"""
SET_SETTING = "SELECT {schema}.set_setting(name => %(name)s, value => %(value)s)"

# --- knowledge ------------------------------------------------------------------------

DEFINE_PREDICATE = (
    "SELECT {schema}.define_predicate(name => %(name)s, cardinality => %(cardinality)s, "
    "description => %(description)s)"
)
ENSURE_ENTITY = (
    "SELECT {schema}.ensure_entity(kind => %(kind)s, name => %(name)s, "
    "aliases => %(aliases)s, external_ref => %(external_ref)s)"
)
INGEST = "SELECT {schema}.ingest(episode => %(episode)s, claims => %(claims)s)"
AS_OF = """
SELECT * FROM {schema}.as_of(subject => %(subject)s, predicate => %(predicate)s,
                             valid_at => %(valid_at)s, known_at => %(known_at)s) AS a
 ORDER BY a.claim_id
"""
CLAIM_HISTORY = """
SELECT * FROM {schema}.claim_history(subject => %(subject)s, predicate => %(predicate)s)
"""
EXPLAIN_CLAIM = "SELECT {schema}.explain_claim(claim_id => %(claim_id)s)"
CURRENT_CLAIMS = "SELECT * FROM {schema}.current_claims(subject => %(subject)s)"
CHANGES = "SELECT * FROM {schema}.changes(since => %(since)s, until => %(until)s)"
SEARCH_CLAIMS = """
SELECT * FROM {schema}.search_claims(
           query => %(query)s, min_confidence => %(min_confidence)s::real,
           include_history => %(include_history)s, "limit" => %(limit)s::integer)
"""
RETRACT = "SELECT {schema}.retract(claim_id => %(claim_id)s)"
RESTORE = "SELECT {schema}.restore(claim_id => %(claim_id)s)"
OVERRIDE = "SELECT {schema}.override(idempotency_key => %(idempotency_key)s, claim => %(claim)s)"
PURGE_SOURCE = (
    "SELECT {schema}.purge_source(source_kind => %(source_kind)s, source_ref => %(source_ref)s)"
)
VERIFY_SLOT = (
    "SELECT * FROM {schema}.verify_slot(subject => %(subject)s, predicate => %(predicate)s)"
)

# --- retrieval --------------------------------------------------------------------------

SEARCH = """
SELECT * FROM {schema}.search(
           query => %(query)s, query_vector => %(query_vector)s::public.vector,
           model => %(model)s, "limit" => %(limit)s::integer, scope => %(scope)s,
           item_kinds => %(item_kinds)s::text[], key_prefix => %(key_prefix)s,
           tags => %(tags)s::text[], intent => %(intent)s, valid_at => %(valid_at)s,
           known_at => %(known_at)s, text_weight => %(text_weight)s::real,
           vector_weight => %(vector_weight)s::real)
"""
NEAREST = """
SELECT * FROM {schema}.nearest(
           model => %(model)s, query_vector => %(query_vector)s::public.vector,
           k => %(k)s::integer, item_kinds => %(item_kinds)s::text[], scope => %(scope)s,
           valid_at => %(valid_at)s, known_at => %(known_at)s,
           include_history => %(include_history)s)
"""
DETECT_INTENT = "SELECT {schema}.detect_intent(query => %(query)s)"
CONTEXT_PACK = """
SELECT {schema}.context_pack(
    query => %(query)s, token_budget => %(token_budget)s::integer,
    query_vector => %(query_vector)s::public.vector, model => %(model)s, scope => %(scope)s,
    "limit" => %(limit)s::integer, chars_per_token => %(chars_per_token)s::real,
    include_candidates => %(include_candidates)s::boolean,
    neighbours => %(neighbours)s::integer)
"""
FIND_KEYS = """
SELECT * FROM {schema}.find_keys(pattern => %(pattern)s, "limit" => %(limit)s::integer,
                                 scope => %(scope)s)
"""
SIMILAR_FACTS = """
SELECT * FROM {schema}.similar_facts(scope_key => %(scope_key)s, k => %(k)s::integer,
                                     model => %(model)s)
"""
SEARCH_SKILLS = """
SELECT * FROM {schema}.search_skills(query => %(query)s,
                                     query_vector => %(query_vector)s::public.vector,
                                     model => %(model)s, "limit" => %(limit)s::integer)
"""
# DBA: a dimension's HNSW index, built CONCURRENTLY outside a transaction, then allowed.
DIMENSION_INDEX_SQL = """
SELECT {schema}_internal.dimension_index_sql(%(dimension)s::integer, build_concurrently => true)
"""
SERIAL_INDEX_BUILDS = "SET max_parallel_maintenance_workers = 0"
ALLOW_EMBEDDING_DIMENSION = "SELECT {schema}.allow_embedding_dimension(%(dimension)s::integer)"
REGISTER_EMBEDDING_MODEL = (
    "SELECT {schema}.register_embedding_model(model => %(model)s, dimension => %(dimension)s)"
)
SET_EMBEDDINGS = 'SELECT {schema}.set_embeddings(model => %(model)s, "rows" => %(rows)s)'
CLAIM_EMBEDDING_WORK = (
    "SELECT * FROM {schema}.claim_embedding_work(batch_size => %(batch_size)s::integer)"
)
FAIL_EMBEDDING_WORK = (
    "SELECT {schema}.fail_embedding_work(items => %(items)s, error_code => %(error_code)s)"
)
EMBEDDING_BACKLOG = "SELECT {schema}.embedding_backlog()"
EMBEDDING_BACKLOG_BY_TENANT = (
    "SELECT * FROM {schema}.embedding_backlog_by_tenant(model => %(model)s)"
)

# --- graph ------------------------------------------------------------------------------

GRAPH_UPSERT_NODE = """
SELECT {schema}.graph_upsert_node(kind => %(kind)s, name => %(name)s, namespace => %(namespace)s,
                                  aliases => %(aliases)s::text[], evidence => %(evidence)s::text[])
"""
GRAPH_UPSERT_EDGE = """
SELECT {schema}.graph_upsert_edge(
    from_key => %(from_key)s, to_key => %(to_key)s, predicate => %(predicate)s,
    namespace => %(namespace)s, confidence => %(confidence)s::double precision,
    evidence => %(evidence)s::text[])
"""
GRAPH_MERGE_NODES = """
SELECT {schema}.graph_merge_nodes(from_key => %(from_key)s, into_key => %(into_key)s,
                                  reason => %(reason)s, namespace => %(namespace)s)
"""
GRAPH_DELETE_NODE = (
    "SELECT {schema}.graph_delete_node(node_key => %(node_key)s, namespace => %(namespace)s)"
)
GRAPH_DELETE_EDGE = """
SELECT {schema}.graph_delete_edge(from_key => %(from_key)s, to_key => %(to_key)s,
                                  predicate_key => %(predicate_key)s, namespace => %(namespace)s)
"""
GRAPH_REMOVE_EVIDENCE = (
    "SELECT {schema}.graph_remove_evidence(scope_key => %(scope_key)s, namespace => %(namespace)s)"
)
GRAPH_SEARCH_NODES = """
SELECT * FROM {schema}.graph_search_nodes(
    kind => %(kind)s, name_like => %(name_like)s, namespace => %(namespace)s,
    seeds => %(seeds)s::text[], depth => %(depth)s::integer, "limit" => %(limit)s::integer)
"""
GRAPH_SEARCH_EDGES = """
SELECT * FROM {schema}.graph_search_edges(
    predicate => %(predicate)s, predicate_key => %(predicate_key)s, from_key => %(from_key)s,
    to_key => %(to_key)s, min_confidence => %(min_confidence)s::double precision,
    namespace => %(namespace)s, "limit" => %(limit)s::integer)
"""
GRAPH_NEIGHBOURHOOD = """
SELECT {schema}.graph_neighbourhood(
    node_key => %(node_key)s, depth => %(depth)s::integer, seeds => %(seeds)s::text[],
    namespace => %(namespace)s, "limit" => %(limit)s::integer,
    valid_at => %(valid_at)s::timestamptz, known_at => %(known_at)s::timestamptz)
"""
GRAPH_STATS = "SELECT {schema}.graph_stats(namespace => %(namespace)s)"
# pgfacts doctor: each tenant's projection, its state and lag now (seconds).
GRAPH_PROJECTION_STATES = """
SELECT tenant, graph_name, state, pending,
       EXTRACT(epoch FROM pg_catalog.clock_timestamp() - oldest_change)
  FROM {schema}.graph_projection_backlog()"""
GRAPH_PROJECTION_NAME = "SELECT {schema}.graph_projection_name()"
GRAPH_CYPHER = "SELECT {schema}.graph_cypher(name => %(name)s, params => %(params)s::jsonb)"
SYNC_GRAPH_PROJECTION = (
    "SELECT {schema}.sync_graph_projection(max_changes => %(max_changes)s::integer)"
)
REBUILD_GRAPH_PROJECTION = "SELECT {schema}.rebuild_graph_projection()"
VERIFY_GRAPH_PROJECTION = "SELECT * FROM {schema}.verify_graph_projection()"
GRAPH_PROJECTION_BACKLOG = "SELECT * FROM {schema}.graph_projection_backlog()"

# -- operations: the maintenance jobs and pg_cron --------------------------------------------
MAINTENANCE_JOBS = "SELECT {schema}.maintenance_jobs()"
SCHEDULE_MAINTENANCE = "SELECT {schema}.schedule_maintenance(schedules => %(schedules)s)"
UNSCHEDULE_MAINTENANCE = "SELECT {schema}.unschedule_maintenance()"
SYNC_GRAPH_PROJECTIONS = "SELECT {schema}.sync_graph_projections(max_changes => %(max_changes)s)"
APPLY_RETENTION_EVERYWHERE = (
    "SELECT {schema}.apply_retention_everywhere(batch => %(batch)s::integer)"
)

# -- the pipeline's outbox -----------------------------------------------------------------
RECORD_MEMORY = """
SELECT {schema}.record_memory(
    source_kind => %(source_kind)s, source_ref => %(source_ref)s, lines => %(lines)s::jsonb,
    occurred_at => %(occurred_at)s::timestamptz, trust => %(trust)s,
    content_hash => %(content_hash)s)
"""
FORCE_EXTRACT = "SELECT {schema}.force_extract(memory_id => %(memory_id)s::bigint)"
EXTRACTION_STATUS = "SELECT {schema}.extraction_status(event_id => %(event_id)s::bigint)"
EXTRACTION_EVENTS = (
    'SELECT {schema}.extraction_events(state => %(state)s, "limit" => %(limit)s::integer)'
)
CLAIM_EXTRACTION_WORK = (
    "SELECT * FROM {schema}.claim_extraction_work(batch_size => %(batch_size)s::integer)"
)
COMPLETE_EXTRACTION = """
SELECT {schema}.complete_extraction(
    event_id => %(event_id)s::bigint, lease_token => %(lease_token)s::uuid,
    extractor => %(extractor)s, claims => %(claims)s::jsonb)
"""
FAIL_EXTRACTION = """
SELECT {schema}.fail_extraction(
    event_id => %(event_id)s::bigint, lease_token => %(lease_token)s::uuid,
    error_code => %(error_code)s::integer, error => %(error)s)
"""
RELEASE_EXTRACTION = """
SELECT {schema}.release_extraction(
    event_id => %(event_id)s::bigint, lease_token => %(lease_token)s::uuid)
"""
EXTRACTION_BACKLOG = "SELECT * FROM {schema}.extraction_backlog()"
APPLY_RETENTION = 'SELECT {schema}.apply_retention("limit" => %(limit)s)'
RETENTION_BACKLOG = "SELECT * FROM {schema}.retention_backlog()"
EXTRACTION_HEALTH = "SELECT {schema}.extraction_health(tenant => %(tenant)s)"
VALIDATE_EXTRACTION = """
SELECT {schema}.validate_extraction(
    context => %(context)s::jsonb, output => %(output)s::jsonb)
"""
EXTRACTION_CONTEXT = """
SELECT {schema}.extraction_context(
    memory_id => %(memory_id)s::bigint, max_entities => %(max_entities)s::integer)
"""
EXTRACTION_PROMPT = "SELECT {schema}.extraction_prompt(context => %(context)s::jsonb)"
PARSE_EXTRACTION_REPLY = "SELECT {schema}.parse_extraction_reply(reply => %(reply)s)"
COMPLETE_EXTRACTIONS = """
SELECT {schema}.complete_extractions(extractor => %(extractor)s, results => %(results)s::jsonb)
"""

# -- governance --------------------------------------------------------------------------

AUDIT = """
SELECT * FROM {schema}.audit(
    since => %(since)s::timestamptz, until => %(until)s::timestamptz,
    operation => %(operation)s, target => %(target)s, agent_id => %(agent_id)s,
    session_id => %(session_id)s, "limit" => %(limit)s::integer)
"""
PURGE_AUDIT_LOG = "SELECT {schema}.purge_audit_log(before => %(before)s::timestamptz)"
REDACTION_PLACEHOLDERS = "SELECT {schema}.redaction_placeholders()"
SET_REDACTION_PLACEHOLDERS = (
    "SELECT {schema}.set_redaction_placeholders(placeholders => %(placeholders)s::text[])"
)
REVIEW_QUEUE = 'SELECT * FROM {schema}.review_queue("limit" => %(limit)s::integer)'
REVIEW_CANDIDATE = "SELECT {schema}.review_candidate(candidate_id => %(candidate_id)s::bigint)"
APPROVE_CLAIM = (
    "SELECT {schema}.approve_claim(candidate_id => %(candidate_id)s::bigint, note => %(note)s)"
)
REJECT_CLAIM = (
    "SELECT {schema}.reject_claim(candidate_id => %(candidate_id)s::bigint, note => %(note)s)"
)
LIFT_REJECTION = "SELECT {schema}.lift_rejection(rejection_id => %(rejection_id)s::bigint)"
REVIEW_KEY_PREFIXES = "SELECT {schema}.review_key_prefixes()"
SET_REVIEW_KEY_PREFIXES = (
    "SELECT {schema}.set_review_key_prefixes(prefixes => %(prefixes)s::text[])"
)
FACT_REVIEW_QUEUE = 'SELECT {schema}.fact_review_queue("limit" => %(limit)s::integer)'
APPROVE_FACT = (
    "SELECT {schema}.approve_fact(candidate_id => %(candidate_id)s::bigint, note => %(note)s)"
)
REJECT_FACT = (
    "SELECT {schema}.reject_fact(candidate_id => %(candidate_id)s::bigint, note => %(note)s)"
)

# -- transfer ----------------------------------------------------------------------------

EXPORT_TENANT = """
SELECT line FROM {schema}.export_tenant(
    embeddings => %(embeddings)s::boolean, audit => %(audit)s::boolean) AS line
"""
# COPY as CSV with control characters for delimiter and quote, which JSON text never holds
# raw: each JSON line passes through COPY unchanged (the text format would double its
# backslashes).
COPY_OPTIONS = "(FORMAT csv, DELIMITER E'\\x01', QUOTE E'\\x02')"
COPY_EXPORT = "COPY (" + EXPORT_TENANT.strip() + ") TO STDOUT " + COPY_OPTIONS
COPY_IMPORT = "COPY pg_temp.transfer_input (line) FROM STDIN " + COPY_OPTIONS
IMPORT_OPEN = """
SELECT {schema}.import_open(
    file_sha256 => %(file_sha256)s, first_line => %(first_line)s, file_name => %(file_name)s)
"""
IMPORT_STAGED = (
    "SELECT {schema}.import_staged(first_line => %(first_line)s, last_part => %(last_part)s)"
)
IMPORT_BATCH = (
    "SELECT {schema}.import_batch(batch_size => %(batch_size)s::integer, "
    "rejects_through => %(rejects_through)s::bigint, rejects_bytes => %(rejects_bytes)s::bigint)"
)
IMPORT_ABANDON = "SELECT {schema}.import_abandon()"
