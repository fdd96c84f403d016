-- delete_fact: soft deletes (tombstones) by exact key or by pattern.

CREATE OR REPLACE FUNCTION @schema@_internal.pattern_delete_scope(
    scope text, kind text, caller text
) RETURNS text
LANGUAGE plpgsql
IMMUTABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF scope NOT IN ('session', 'shared', 'all') THEN
        RAISE EXCEPTION 'unknown pattern-delete scope %', @schema@_internal.shown(scope)
            USING ERRCODE = '22023', HINT = 'one of: session, shared, all';
    END IF;
    IF scope = 'all' AND kind <> 'facts_manager' THEN
        RAISE EXCEPTION 'scope all is for the facts manager' USING ERRCODE = '42501';
    END IF;
    IF scope = 'session' AND caller IS NULL THEN
        RAISE EXCEPTION 'scope session needs a session in the caller context' USING ERRCODE = '22023';
    END IF;
    RETURN scope;
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.pattern_delete_scope(text, text, text) IS
'The scope of a pattern delete (session | shared | all), checked: 22023 for an unknown one or '
'session without a caller session, 42501 for all by a kind other than the facts manager.';

-- A function of its own (not a branch of delete_fact): the audit tells a pattern delete
-- from a single one by it (sql/60_governance's audit_tombstone_operation).
CREATE OR REPLACE FUNCTION @schema@_internal.delete_facts_by_pattern(
    tenant text, key text, kind text, caller text, agent text, manager boolean, scope text
) RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    like_key text;
    head text;
    deleted int;
BEGIN
    SELECT p.like_pattern, p.literal_head INTO like_key, head
      FROM @schema@_internal.parse_key_pattern(key) AS p;
    -- A pattern inside a reserved namespace is refused; a wider one (a/*, *) skips the
    -- reserved keys the kind may not delete.
    IF @schema@_internal.key_access(head, kind) <> 'all' THEN
        PERFORM @schema@_internal.raise_reserved_key(key, kind, 'delete');
    END IF;
    -- Lock in scope-key order first, as writers do, so concurrent batches cannot deadlock.
    WITH doomed AS (
        SELECT f.fact_id FROM @schema@_internal.facts AS f
         WHERE f.tenant = tenant AND f.deleted_at IS NULL AND f.key ^@ head
           AND f.key LIKE like_key
           AND @schema@_internal.key_access(f.key, kind) = 'all'
           AND CASE scope
                   WHEN 'session' THEN @schema@_internal.fact_scope(f.shared, f.session_id) = caller
                   WHEN 'shared' THEN f.shared
                       AND (manager OR (agent IS NOT NULL AND f.owner_agent_id = agent)
                            OR (caller IS NOT NULL AND f.owner_session_id = caller))
                   ELSE true
               END
         ORDER BY f.scope_key
           FOR UPDATE
    )
    UPDATE @schema@_internal.facts AS f SET deleted_at = pg_catalog.clock_timestamp()
      FROM doomed AS d
     WHERE f.tenant = tenant AND f.fact_id = d.fact_id;
    GET DIAGNOSTICS deleted = ROW_COUNT;
    RETURN pg_catalog.jsonb_build_object('keyPattern', key, 'scope', scope, 'deleted', deleted);
END
$fn$;

COMMENT ON FUNCTION @schema@_internal.delete_facts_by_pattern(
    text, text, text, text, text, boolean, text) IS
'delete_fact''s pattern delete: tombstone the facts of tenant whose key matches the pattern '
'in scope (checked by pattern_delete_scope) that kind may delete; {keyPattern, scope, deleted}.';

CREATE OR REPLACE FUNCTION @schema@.delete_fact(
    key text,
    shared boolean DEFAULT false,
    pattern boolean DEFAULT false,
    scope text DEFAULT NULL
) RETURNS jsonb
LANGUAGE plpgsql
VOLATILE
SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
#variable_conflict use_variable
DECLARE
    tenant text := @schema@_internal.context_tenant();
    kind text := @schema@_internal.require_writer('deletes');
    caller text := @schema@_internal.context_session();
    agent text := @schema@_internal.context_agent();
    manager boolean;
    target text;
    found_row record;
    deleted int;
BEGIN
    manager := kind IN ('facts_manager', 'operator');
    IF @schema@_internal.key_problem(key) IS NOT NULL THEN
        PERFORM @schema@_internal.check_key(key);  -- says what is wrong
    END IF;
    shared := coalesce(shared, false);

    IF NOT coalesce(pattern, false) THEN
        IF scope IS NOT NULL THEN
            RAISE EXCEPTION 'scope applies only to pattern deletes'
                USING ERRCODE = '22023', HINT = 'pass pattern => true to delete by pattern';
        END IF;
        IF @schema@_internal.key_access(key, kind) <> 'all' THEN
            PERFORM @schema@_internal.raise_reserved_key(key, kind, 'delete');
        END IF;
        IF NOT shared AND caller IS NULL THEN
            RAISE EXCEPTION 'deleting a session fact needs a session in the caller context'
                USING ERRCODE = '22023', HINT = 'set_context(session_id => ...) or pass shared => true';
        END IF;
        target := @schema@_internal.scope_key_of(shared, CASE WHEN shared THEN caller
            ELSE @schema@_internal.memory_session(tenant, caller) END, key);
        -- One statement in the common case: the ownership rule is part of the UPDATE, and
        -- only a shared fact it left alone is looked at again, to say why.
        UPDATE @schema@_internal.facts AS f SET deleted_at = pg_catalog.clock_timestamp()
         WHERE f.tenant = tenant AND f.scope_key = target AND f.deleted_at IS NULL
           AND @schema@_internal.fact_scope(f.shared, f.session_id)
               = @schema@_internal.scope_key_scope(target)
           AND f.key = @schema@_internal.scope_key_key(target)
           AND (NOT shared OR manager
                OR (agent IS NOT NULL AND f.owner_agent_id = agent)
                OR (caller IS NOT NULL AND f.owner_session_id = caller));
        GET DIAGNOSTICS deleted = ROW_COUNT;
        IF deleted = 0 AND shared AND NOT manager THEN
            SELECT f.owner_agent_id, f.owner_session_id INTO found_row
              FROM @schema@_internal.facts AS f
             WHERE f.tenant = tenant AND f.scope_key = target AND f.deleted_at IS NULL
               AND @schema@_internal.fact_scope(f.shared, f.session_id)
                   = @schema@_internal.scope_key_scope(target)
               AND f.key = @schema@_internal.scope_key_key(target);
            IF FOUND THEN
                RAISE EXCEPTION 'shared fact % belongs to another agent', @schema@_internal.shown(key)
                    USING ERRCODE = '42501',
                          DETAIL = pg_catalog.format('created by agent %s in session %s',
                                                     @schema@_internal.shown(found_row.owner_agent_id),
                                                     @schema@_internal.shown(found_row.owner_session_id)),
                          HINT = 'agents delete only what they stored; ask the facts manager';
            END IF;
        END IF;
        RETURN pg_catalog.jsonb_build_object('key', key, 'shared', shared, 'deleted', deleted > 0);
    END IF;

    RETURN @schema@_internal.delete_facts_by_pattern(tenant, key, kind, caller, agent, manager,
        @schema@_internal.pattern_delete_scope(
            coalesce(scope, CASE WHEN shared THEN 'shared' ELSE 'session' END), kind, caller));
END
$fn$;

COMMENT ON FUNCTION @schema@.delete_fact(text, boolean, boolean, text) IS
'Soft-delete (tombstone) a fact: the caller''s session fact, or the shared one with shared => '
'true; agents delete only shared facts they created (or revived). Returns {key, shared, deleted}; a second '
'delete is a no-op. With pattern => true, key is a pattern (* and %) and scope is session | '
'shared | all (all: the facts manager only); returns {keyPattern, scope, deleted: n}.';
