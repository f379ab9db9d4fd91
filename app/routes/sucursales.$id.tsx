import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { recordAction, recordLoader } from "~/crud/crud.server";
import { personasDe } from "~/crud/personas.server";
import { sucursales } from "~/entities/sucursales";
import { EntityRecordPage, pageTitle } from "~/ui/EntityPages";
import { PersonasSection } from "~/ui/Personas";

export const loader = (args: LoaderFunctionArgs) =>
  recordLoader(sucursales, args, { extra: ({ store, id }) => personasDe(store, "sucursal", id) });
export const action = (args: ActionFunctionArgs) => recordAction(sucursales, args);
export default function Sucursal() {
  const { personas } = useLoaderData<typeof loader>();
  return (
    <EntityRecordPage entity={sucursales}>
      <PersonasSection personas={personas} donde="en esta sucursal" />
    </EntityRecordPage>
  );
}
export const meta: MetaFunction<typeof loader> = ({ data }) =>
  pageTitle(data ? String(data.record.nombre) : undefined, sucursales.title);
