-- Layer: 30_retrieval
--
-- Item kinds a later layer serves to search (issue 25: the governance layer's review
-- candidates, asked for as item kind 'candidate' or context_pack's include_candidates).
-- search calls the handler each registered kind names, never the layer: the install's
-- registry (no tenant column), emptied and refilled whenever the definitions apply.

SET LOCAL ROLE @schema@_owner;

CREATE TABLE @schema@_internal.search_item_sources (
    item_kind text NOT NULL,
    handler regprocedure NOT NULL,
    CONSTRAINT search_item_sources_pkey PRIMARY KEY (item_kind),
    CONSTRAINT search_item_sources_kind_check CHECK (
        item_kind ~ '^[a-z][a-z_]{0,30}$' AND item_kind NOT IN ('fact', 'claim')
    )
);
COMMENT ON TABLE @schema@_internal.search_item_sources IS
'The item kinds later layers serve to search (register_search_source): kind and handler';
