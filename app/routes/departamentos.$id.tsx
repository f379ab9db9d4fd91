import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { recordAction, recordLoader } from "~/crud/crud.server";
import { departamentos } from "~/entities/departamentos";
import { personasDe } from "~/crud/personas.server";
import { EntityRecordPage, pageTitle } from "~/ui/EntityPages";
import { PersonasSection } from "~/ui/Personas";

export const loader = (args: LoaderFunctionArgs) =>
  recordLoader(departamentos, args, { extra: ({ store, id }) => personasDe(store, "departamento", id) });
export const action = (args: ActionFunctionArgs) => recordAction(departamentos, args);
export default function Departamento() {
  const { personas } = useLoaderData<typeof loader>();
  return (
    <EntityRecordPage entity={departamentos}>
      <PersonasSection personas={personas} donde="en este departamento" />
    </EntityRecordPage>
  );
}
export const meta: MetaFunction<typeof loader> = ({ data }) =>
  pageTitle(data ? String(data.record.nombre) : undefined, departamentos.title);
