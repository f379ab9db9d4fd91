-- «Hoy» en la base de datos es el día de la oficina (Madrid), el mismo que usa la aplicación.
-- current_date sigue la zona horaria de la sesión, que es UTC en un Supabase alojado y en la base
-- embebida: entre la medianoche de Madrid y la de UTC, la base y la aplicación discrepaban en un
-- día (un pago con fecha valor justo a un año se rechazaba, una remesa podía ejecutarse «ayer»,
-- la antigüedad de un gasto contaba un día de menos; y lo creado en la primera hora del año
-- llevaba el folio del año anterior). Una prueba del catálogo exige lo mismo a cualquier función
-- nueva que use current_date o el año de creado_en.
--
-- Dos formas, según lo que haga la función (cada una, en el archivo que define la función):
-- - Las que solo cuentan días (validaciones, incumplimientos, folios, el panel) fijan la zona de
--   la oficina con SET: da igual la de la sesión que las llame.
-- - Las que además devuelven o escriben momentos como texto (un JSON con creado_en, el historial
--   de lo que cambian) no pueden cambiar de zona sin cambiar ese texto: preguntan interno.hoy()
--   (pagar_gasto, crear_remesa, confirmar_remesa).

create function interno.hoy() returns date language sql stable parallel safe
as $$ select (now() at time zone 'Europe/Madrid')::date $$;
