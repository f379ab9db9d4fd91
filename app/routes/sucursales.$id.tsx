import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { recordAction, recordLoader } from "~/crud/crud.server";
import { personasDe } from "~/crud/personas.server";
import { sucursales } from "~/entities/sucursales";
import { EntityRecordPage, recordMeta } from "~/ui/EntityPages";
import { PersonasSection } from "~/ui/Personas";

export const loader = (args: LoaderFunctionArgs) => recordLoader(sucursales, args, { extra: personasDe("sucursal") });
export const action = (args: ActionFunctionArgs) => recordAction(sucursales, args);
export const meta = recordMeta(sucursales);

export default function Sucursal() {
  const { personas } = useLoaderData<typeof loader>();
  return (
    <EntityRecordPage entity={sucursales}>
      <PersonasSection personas={personas} donde="en esta sucursal" />
    </EntityRecordPage>
  );
}
