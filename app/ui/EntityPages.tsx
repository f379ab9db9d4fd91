import { Link, useActionData, useFormAction, useLoaderData, useLocation, useRouteLoaderData } from "@remix-run/react";
import type { RootData } from "~/root";
import type { ReactNode } from "react";
import type { ListData, Options, RecordData, StoredRow } from "~/crud/crud.server";
import { listHref, SELECCIONAR_TODOS } from "~/crud/list-query";
import { enBloqueDeLaPagina, forRole, nuevo, nuevoComoEste, recordName, type Entity } from "~/entities/entity";
import type { Formats } from "~/lib/format";
import { AccionForm } from "./AccionForm";
import { AccionesEnBloque, EN_BLOQUE_FORM, EN_BLOQUE_RESPUESTA, useColumnaSeleccion } from "./AccionesEnBloque";
import { ConfirmDialog, FormEliminar } from "./ConfirmDialog";
import {
  CreateForm,
  displayField,
  EditForm,
  OptionSearchForms,
  ValoresDelRegistro,
  type ActionData,
} from "./EntityForms";
import { History } from "./History";
import { backToRow, DataTable, FilterForm, ListViews, Pagination } from "./lists";
import { pageTitle, useFormats } from "./page";
import { AvisosDeLista, creeElPrimero, ListaVacia, ResumenLista, resumenDeLista } from "./ResumenLista";
import { SeccionesDeFicha } from "./SeccionesDeFicha";

type Row = StoredRow;

/** A record page's title: the record's name, the section, the application (a `single` entity's: the section). */
export function recordMeta(entity: Entity) {
  return ({ data }: { data: RecordData | undefined }) =>
    pageTitle(data && !entity.single ? recordName(entity, data.record) : undefined, entity.title);
}

export function EntityListPage({ entity: declared, children }: { entity: Entity; children?: ReactNode }) {
  const { state, result, options, can, nuevo: formNuevo, busquedaCorta, avisoOrden } = useLoaderData<ListData>();
  const user = useRouteLoaderData<RootData>("root")?.user;
  const rol = user?.rol;
  // Without the fields this role does not read (`reservados`).
  const entity = forRole(declared, rol);
  const formats = useFormats();
  const location = useLocation();
  const here = location.pathname + location.search;
  const count = resumenDeLista(entity, result, formats).cuenta;
  // The bulk actions this person may post on the rows of this page, and the rows they apply to.
  const enBloque = enBloqueDeLaPagina(entity, user ? { id: user.id, rol: user.rol } : undefined, result.rows);
  const todos = new URLSearchParams(location.search).get(SELECCIONAR_TODOS) === "todos";
  // This list's URL (filters and page included): the summary comes back to the same page.
  const accion = useFormAction();
  const columna = useColumnaSeleccion<Row>({
    entity,
    seleccionable: enBloque.seleccionable,
    nombre: (row) => recordName(entity, row),
    todos,
  });
  return (
    <>
      <div className="titulo-pagina">
        <h1>{entity.title}</h1>
        {can.crear ? (
          <a className="boton" href="#nuevo">
            {nuevo(entity)}
          </a>
        ) : null}
      </div>
      {entity.intro ? <p className="intro">{entity.intro}</p> : null}
      {entity.vistas?.length ? <ListViews entity={entity} state={state} rol={rol ?? ""} todos="Todos" /> : null}
      <FilterForm entity={entity} state={state} options={options} />
      <AvisosDeLista entity={entity} state={state} busquedaCorta={busquedaCorta} avisoOrden={avisoOrden} />
      <ResumenLista entity={entity} state={state} result={result} formats={formats} />
      {result.rows.length > 0 ? (
        <>
          <DataTable
            entity={entity}
            rows={result.rows}
            state={state}
            formats={formats}
            caption={`${entity.title}: ${count}`}
            recordHref={(row) => `${entity.path}/${row.id}?volver=${encodeURIComponent(here)}`}
            leading={enBloque.acciones.length > 0 ? columna : undefined}
            estimated={result.estimated}
          />
          <Pagination path={entity.path} state={state} total={result.total} estimated={result.estimated} />
          {enBloque.acciones.length > 0 ? (
            <AccionesEnBloque
              entity={entity}
              acciones={enBloque.acciones}
              action={`${accion}#${EN_BLOQUE_RESPUESTA}`}
              aqui={listHref(entity.path, state, {})}
              todosHref={`${listHref(entity.path, state, { [SELECCIONAR_TODOS]: "todos" })}#${EN_BLOQUE_FORM}-titulo`}
            />
          ) : null}
        </>
      ) : (
        <ListaVacia
          entity={entity}
          state={state}
          total={result.total}
          primero={can.crear ? creeElPrimero(entity) : entity.intro}
        />
      )}
      {children}
      {can.crear ? <CreateForm entity={entity} options={options} {...formNuevo} /> : null}
      {can.crear ? <OptionSearchForms options={options} /> : null}
    </>
  );
}

export function EntityRecordPage({
  entity: declared,
  children,
  sinVolver = false,
}: {
  entity: Entity;
  children?: ReactNode;
  /** No «Volver a …» link: the page is reached from elsewhere than its list (one's own profile). */
  sinVolver?: boolean;
}) {
  const { record, history, options, can, campos, camposPorQue, volver, confirmDelete, acciones, secciones } =
    useLoaderData<RecordData>();
  // Without the fields this role does not read (`reservados`).
  const entity = forRole(declared, useRouteLoaderData<RootData>("root")?.user?.rol);
  const actionData = useActionData<ActionData>();
  const formats = useFormats();
  const location = useLocation();
  const name = recordName(entity, record);
  const self = `${location.pathname}?volver=${encodeURIComponent(volver)}`;
  // Back in the list, at this record's row (and its link focused), not at the top.
  const back = backToRow(volver, record.id);
  return (
    <>
      {entity.single ? (
        <>
          <h1>{entity.title}</h1>
          {entity.intro ? <p className="intro">{entity.intro}</p> : null}
        </>
      ) : (
        <>
          {sinVolver ? null : (
            <p className="migas">
              <Link to={back}>← Volver a {entity.plural}</Link>
            </p>
          )}
          <h1>{name}</h1>
        </>
      )}
      {actionData?.deleteError ? (
        <div className="aviso aviso-error" role="alert">
          {actionData.deleteError}
        </div>
      ) : null}
      {confirmDelete && can.eliminar && !actionData?.deleteError ? (
        <ConfirmDialog titleId="confirmar-titulo" cancelHref={self} id="confirmar">
          <h2 id="confirmar-titulo">
            ¿Eliminar {entity.gender === "f" ? "la" : "el"} {entity.singular} «{name}»?
          </h2>
          <p>Esta acción no se puede deshacer.</p>
          <FormEliminar version={record.version} cancelHref={self} />
        </ConfirmDialog>
      ) : null}
      {can.editar ? (
        // A new version is a fresh form: after a save that stays on this page (a `single` entity's),
        // the fields show what was stored (normalised), not what was typed.
        <EditForm
          key={record.version}
          entity={entity}
          record={actionData?.current ?? record}
          options={options}
          // A refused action (its own form below) is not this form's.
          actionData={actionData?.intent && actionData.intent !== "guardar" ? undefined : actionData}
          volver={volver}
          campos={campos}
          porQue={camposPorQue}
        />
      ) : (
        <ReadOnly entity={entity} record={record} formats={formats} options={options} />
      )}
      {entity.copia && can.crear ? (
        <p>
          <Link to={`${entity.path}?como=${record.id}#nuevo`}>{nuevoComoEste(entity)}</Link>
        </p>
      ) : null}
      {can.eliminar && !confirmDelete ? (
        <p>
          <Link
            to={`${location.pathname}?eliminar=1&volver=${encodeURIComponent(volver)}#confirmar`}
            className="boton peligro"
          >
            Eliminar {entity.singular}…
          </Link>
        </p>
      ) : null}
      {acciones.length > 0 ? (
        <section aria-labelledby="acciones-registro" className="acciones-flujo">
          <h2 id="acciones-registro">Acciones</h2>
          {(entity.acciones ?? [])
            .filter((a) => acciones.includes(a.intent))
            .map((a) => (
              <AccionForm
                key={a.intent}
                accion={a}
                record={record}
                lastResult={actionData?.intent === a.intent ? actionData.result : undefined}
              />
            ))}
        </section>
      ) : null}
      <SeccionesDeFicha entity={entity} datos={secciones} />
      {children}
      <History
        entries={history}
        fields={entity.fields}
        formats={formats}
        labels={entity.etiquetasHistorial}
        show={(field, value) => displayField(field, value, formats, options)}
      />
      {can.editar ? <OptionSearchForms options={options} /> : null}
    </>
  );
}

function ReadOnly({
  entity,
  record,
  formats,
  options,
}: {
  entity: Entity;
  record: Row;
  formats: Formats;
  options: Options;
}) {
  return (
    <section aria-labelledby="datos" className="panel">
      <h2 id="datos">Datos</h2>
      <ValoresDelRegistro entity={entity} record={record} formats={formats} options={options} className="ficha" />
    </section>
  );
}
